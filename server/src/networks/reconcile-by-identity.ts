/**
 * @module
 * Reconcile for networks that take no key of ours (issue 30, cases 2 and 3): after a crash between a commit and its
 * record, find exactly the post that commit made, or prove there is none.
 * - The account's posts are paged back (the network's own cursor) until a page reaches posts older than the commit's
 *   start, never a fixed count: any number of posts made since cannot hide it.
 * - A candidate must match the whole recorded request (every field the commit sent, not only a title), be made
 *   after the commit started, and not be recorded already by another post of this service (a twin with equal
 *   content that was published before).
 * - Exactly one candidate is adopted; none proves the commit never reached the network (it may run once more); more
 *   than one, or a listing that cannot be paged to the commit's time, is `unconfirmed`: recorded as an error whose
 *   details say `outcome: 'unknown'`, and never sent again.
 */
import type { PublishContext, PublishFailure } from './publish-adapter.js';

/**
 * Candidates made this long before the commit's start still count: networks give whole seconds (a post made in the
 * commit's second reads as up to 1 s earlier) and clocks synchronised by NTP differ by far less than a second more.
 * Never more: a post that existed before the commit started is not its result (a twin someone else made).
 */
export const CLOCK_SLACK_MS = 2_000;
/** A listing is paged at most this far; beyond it the outcome is unconfirmed rather than guessed. */
export const MAX_RECONCILE_PAGES = 100;

export interface Candidate {
  id: string;
  /** When the network made it, epoch ms. */
  createdAt: number;
  /** Whether every field the commit sent matches. */
  matches: boolean;
}

export interface Page<T> {
  items: T[];
  /** The cursor of the next (older) page; null at the end of the listing. */
  next: string | null;
}

/** The outcome that cannot be decided: recorded as an error, never a second commit. */
export function unconfirmed(platform: string, reason: string): PublishFailure {
  return {
    kind: 'failed',
    code: 500,
    message: `A publish to ${platform} was interrupted and the service could not tell whether the post went out (${reason}). It was not sent again, so it is there at most once. Check the account, then retry the post if it is missing.`,
    retryAvailable: false,
    relink: false,
    details: { outcome: 'unknown', reason },
  };
}

/**
 * Pages the listing back to the commit's start and decides. `read(cursor)` fetches one page (null cursor = newest),
 * or returns a failure (the network refused: reconcile is retried later by the engine's job).
 */
export async function findByIdentity<T>(
  ctx: PublishContext,
  read: (cursor: string | null) => Promise<Page<T> | PublishFailure>,
  candidate: (item: T) => Candidate | null,
): Promise<{ id: string; item: T } | null | PublishFailure> {
  const since = (ctx.commitStartedAt ?? 0) - CLOCK_SLACK_MS;
  const found: { id: string; item: T }[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < MAX_RECONCILE_PAGES; page++) {
    const answer = await read(cursor);
    if ('kind' in answer) return answer;
    let reachedOlder = false;
    for (const item of answer.items) {
      const seen = candidate(item);
      if (!seen) continue;
      if (seen.createdAt < since) {
        reachedOlder = true;
        continue;
      }
      // Offset paging (linkedin) may show a post twice when others arrive meanwhile: each id counts once.
      if (seen.matches && !found.some((f) => f.id === seen.id) && !(await ctx.isClaimed?.(seen.id))) found.push({ id: seen.id, item });
    }
    if (reachedOlder || answer.next === null) return decide(ctx, found);
    cursor = answer.next;
  }
  return unconfirmed(ctx.post.platform, `the account's posts could not be read back to the commit's time within ${MAX_RECONCILE_PAGES} pages`);
}

function decide<T>(ctx: PublishContext, found: { id: string; item: T }[]): { id: string; item: T } | null | PublishFailure {
  if (found.length <= 1) return found[0] ?? null;
  return unconfirmed(ctx.post.platform, `${found.length} posts with the same content were made since the commit started: ${found.map((f) => f.id).join(', ')}`);
}
