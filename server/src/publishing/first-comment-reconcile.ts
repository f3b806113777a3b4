/**
 * @module
 * A first comment is an irreversible call too (issue 30, case 4): its start is recorded before the call, and a job
 * that finds a started comment with no result (the process died between the call and its record) looks under the
 * post for it instead of commenting again. Networks take no key for a comment, so it is found by identity: the same
 * text, made after the call started (with the clock slack of reconcile-by-identity.ts). One match is adopted; none
 * means the call never reached the network; more than one, or a network that cannot list comments, is an outcome
 * that cannot be decided and is never sent again.
 */
import type { FirstCommentResult } from '@social-link-kit/protocol/publishing/index.js';
import type { PublishAdapter, PublishContext, PublishFailure } from '../networks/publish-adapter.js';
import { CLOCK_SLACK_MS } from '../networks/reconcile-by-identity.js';

/** What the row stores while a comment call is in flight: `pending` plus when the call started (not shown in answers). */
export type StoredFirstComment = FirstCommentResult & { startedAt?: number };

/** The public shape: the call's start time is bookkeeping, not part of the answer. */
export function publicFirstComment(stored: StoredFirstComment): FirstCommentResult {
  if (stored.status !== 'pending') return stored;
  return { status: 'pending' };
}

const same = (a: string, b: string) => a.replace(/\s+/g, ' ').trim() === b.replace(/\s+/g, ' ').trim();

/**
 * The comment an interrupted call made: `{id}` when found, `null` when provably not made, `{unknown}` when it
 * cannot be told, or the network's failure (the job retries the look-up).
 */
export async function findFirstComment(
  adapter: PublishAdapter,
  ctx: PublishContext,
  networkPostId: string,
  text: string,
  startedAt: number,
): Promise<{ id: string } | { unknown: string } | null | PublishFailure> {
  const since = startedAt - CLOCK_SLACK_MS;
  // The account's own comments where the network lists them apart (threads): the audience's are not in them.
  const listed = adapter.ownComments ? await adapter.ownComments(ctx, networkPostId, since) : adapter.comments ? await adapter.comments(ctx, networkPostId) : null;
  if (listed === null) return { unknown: `${adapter.platform} offers no way to list a post's comments` };
  if (!Array.isArray(listed)) return listed;
  const matches = listed.filter((comment) => same(comment.text, text) && !(Date.parse(comment.created) < since));
  if (matches.length === 1) return { id: matches[0]!.id };
  if (matches.length === 0) return null;
  return { unknown: `${matches.length} comments with this text were made since the call started` };
}
