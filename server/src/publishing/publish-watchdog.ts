/**
 * @module
 * Every state has a deadline (issue 30): ONE job row (`publish-watchdog`, a fixed id, so one worker across instances
 * runs it at a time) sweeps, every minute of the service clock, for publishing work that can no longer end by itself:
 * - a platform `queued`/`processing` in a `processing` post with no live publish job (the job failed, was lost or
 *   cancelled): `unconfirmed` when its commit had started (outcome unknown, never sent again), else error 500
 *   `stuck` (nothing was sent);
 * - a platform `pending` (the network processes it) with no live confirm job, or pending past `PENDING_DEADLINE_MS`:
 *   `unconfirmed` (the network took the post; its end is unknown);
 * - a first comment `pending` with no live first-comment job: error 500 `stuck` (tiktok's comment, pending on the
 *   network by design, after `PENDING_DEADLINE_MS`);
 * - a `processing`/`pending` post whose platforms all ended: its final status (a crash between the two writes).
 * Each end is written in one transaction that locks the post and checks again that the work is still stuck, so a
 * job finishing at the same moment (it locks the post too) wins or loses whole. Each end sends a webhook: the
 * `unconfirmed` event, or the `scheduled` event of the post's end (immediate posts get one here too).
 */
import type { Network } from '@social-link-kit/protocol';
import type { Clock } from '../core/clock.js';
import type { SqlDriver, SqlExecutor } from '../core/db/sql-driver.js';
import type { JobHandler, JobOutcome } from '../core/jobs/job-worker.js';
import type { JobStore } from '../core/jobs/job-store.js';
import type { PublishFailure } from '../networks/publish-adapter.js';
import { unconfirmed } from '../networks/reconcile-by-identity.js';
import { JOB_CONFIRM, JOB_FIRST_COMMENT, JOB_PUBLISH, platformError, type PublishingEngine } from './engine.js';
import type { StoredFirstComment } from './first-comment-reconcile.js';
import type { PostStore, StoredPlatform } from './post-store.js';
import { enqueueScheduledEvent } from './scheduled-event.js';

export const JOB_PUBLISH_WATCHDOG = 'publish-watchdog';
const WATCHDOG_JOB_ID = 'job_publish_watchdog';
/** Service-clock time between sweeps. */
export const WATCHDOG_EVERY_MS = 60_000;
/** The longest a platform may wait for the network's processing (or tiktok's comment) before it is unconfirmed. */
export const PENDING_DEADLINE_MS = 24 * 60 * 60_000;
/** Rows read per page of a sweep. */
const BATCH = 100;

/** The error of work that lost its job before any network call: nothing was sent. */
export function stuckError(platform: Network, what: string): PublishFailure {
  return {
    kind: 'failed',
    code: 500,
    message: `${what} on ${platform} stopped without a result (its job was lost); nothing was sent. Retry the post.`,
    retryAvailable: true,
    relink: false,
    details: { outcome: 'stuck' },
  };
}

/**
 * Adds the sweep job if missing, or brings it back if it ended (fixed id: every instance may call this). Due at
 * once: the first sweep at start finds what a stopped instance left.
 */
export async function ensurePublishWatchdog(db: SqlDriver, now: number): Promise<void> {
  await db.run(`INSERT INTO jobs (id, kind, subject, payload, run_at, created_at) VALUES (?, ?, ?, '{}', ?, ?) ON CONFLICT (id) DO NOTHING`, [
    WATCHDOG_JOB_ID,
    JOB_PUBLISH_WATCHDOG,
    JOB_PUBLISH_WATCHDOG,
    now,
    now,
  ]);
  await db.run('UPDATE jobs SET done_at = NULL, failed_at = NULL, run_at = ?, attempts = 0 WHERE id = ? AND (done_at IS NOT NULL OR failed_at IS NOT NULL)', [now, WATCHDOG_JOB_ID]);
}

export interface WatchdogDeps {
  db: SqlDriver;
  store: PostStore;
  jobs: JobStore;
  engine: PublishingEngine;
  clock: Clock;
  log(line: string): void;
}

export function watchdogJobHandlers(deps: WatchdogDeps): Record<string, JobHandler> {
  return {
    async [JOB_PUBLISH_WATCHDOG](): Promise<JobOutcome> {
      try {
        await sweepStuckWork(deps);
      } catch (error) {
        deps.log(`publish watchdog: sweep failed: ${error instanceof Error ? error.message : String(error)}`);
      }
      return { kind: 'retry', runAt: deps.clock() + WATCHDOG_EVERY_MS };
    },
  };
}

/** Kinds of job that keep each state alive. */
const LIVE_JOB: Record<'run' | 'pending' | 'comment', string> = { run: JOB_PUBLISH, pending: JOB_CONFIRM, comment: JOB_FIRST_COMMENT };

async function hasLiveJob(tx: SqlExecutor, postId: string, platform: Network, kind: string): Promise<boolean> {
  const rows = await tx.all(`SELECT payload FROM jobs WHERE subject = ? AND kind = ? AND done_at IS NULL AND failed_at IS NULL`, [postId, kind]);
  return rows.some((row) => (JSON.parse(row.payload as string) as { platform?: unknown }).platform === platform);
}

/** What the watchdog does with a row now (re-read inside the ending transaction), or null when it is alive. */
async function verdict(tx: SqlExecutor, row: StoredPlatform, now: number): Promise<{ end: 'platform'; failure: PublishFailure } | { end: 'comment'; failure: PublishFailure } | null> {
  const { postId, platform } = row;
  if (row.status === 'queued' || row.status === 'processing') {
    if (await hasLiveJob(tx, postId, platform, LIVE_JOB.run)) return null;
    return { end: 'platform', failure: row.commitStartedAt !== null ? unconfirmed(platform, 'its job ended without recording a result') : stuckError(platform, 'Publishing') };
  }
  if (row.status === 'pending') {
    const overdue = row.commitStartedAt !== null && row.commitStartedAt < now - PENDING_DEADLINE_MS;
    if (!overdue && (await hasLiveJob(tx, postId, platform, LIVE_JOB.pending))) return null;
    return { end: 'platform', failure: unconfirmed(platform, overdue ? 'the network was still processing it after 24 h' : 'its status check was lost') };
  }
  const comment = row.firstComment as StoredFirstComment | null;
  if (row.status === 'success' && comment?.status === 'pending') {
    if (await hasLiveJob(tx, postId, platform, LIVE_JOB.comment)) return null;
    // TikTok keeps a comment pending while the video processes, without a job: that one waits for its deadline.
    const waitingOnNetwork = comment.startedAt === undefined && platform === 'tiktok' && (row.finishedAt ?? now) > now - PENDING_DEADLINE_MS;
    if (waitingOnNetwork) return null;
    return { end: 'comment', failure: comment.startedAt !== undefined ? unconfirmed(platform, 'the first comment call ended without a result') : stuckError(platform, 'The first comment') };
  }
  return null;
}

/** One pass over every candidate, a page at a time (live rows stay candidates, so the pages move on by key). */
export async function sweepStuckWork(deps: WatchdogDeps): Promise<void> {
  const { db } = deps;
  let after = { postId: '', platform: '' };
  for (;;) {
    const candidates = await db.all(
      `SELECT pp.post_id, pp.platform FROM post_platforms pp JOIN posts p ON p.id = pp.post_id
       WHERE p.deleted_at IS NULL AND (
         (p.status IN ('processing', 'pending') AND pp.status IN ('queued', 'processing', 'pending'))
         OR (pp.status = 'success' AND pp.first_comment LIKE '%"pending"%'))
         AND (pp.post_id > ? OR (pp.post_id = ? AND pp.platform > ?))
       ORDER BY pp.post_id, pp.platform LIMIT ${BATCH}`,
      [after.postId, after.postId, after.platform],
    );
    for (const candidate of candidates) await endIfStuck(deps, candidate.post_id as string, candidate.platform as Network);
    if (candidates.length < BATCH) break;
    const last = candidates[candidates.length - 1]!;
    after = { postId: last.post_id as string, platform: last.platform as string };
  }
  // Posts whose platforms all ended but whose own status was never set (the watchdog's ends above included).
  const unfinished = await db.all(
    `SELECT p.id FROM posts p WHERE p.deleted_at IS NULL AND p.status IN ('processing', 'pending')
     AND NOT EXISTS (SELECT 1 FROM post_platforms pp WHERE pp.post_id = p.id AND pp.status IN ('queued', 'processing', 'pending')) LIMIT ${BATCH}`,
  );
  for (const row of unfinished) await deps.engine.finishPostIfDone(row.id as string);
}

/** Ends one platform's work (or its first comment) if it is stuck, in one transaction holding the post's lock. */
async function endIfStuck(deps: WatchdogDeps, postId: string, platform: Network): Promise<void> {
  const { db, store, clock } = deps;
  await db.transaction(async (tx) => {
    const post = await store.lockPost(tx, postId);
    const row = await store.findPlatform(postId, platform, tx);
    if (!post || !row) return;
    const now = clock();
    const decided = await verdict(tx, row, now);
    if (!decided) return;
    const error = errorOf(decided.failure);
    const outcome = (decided.failure.details as { outcome?: string } | undefined)?.outcome;
    deps.log(`publish watchdog: ${postId} ${platform}: ${decided.end === 'comment' ? 'first comment' : 'publish'} ended (${outcome})`);
    if (decided.end === 'comment') {
      await store.recordFirstComment(postId, platform, { status: 'error', code: error.code, message: error.message }, tx);
      return;
    }
    await store.recordError(postId, platform, error, now, tx);
    const errors = [platformError(platform, error)];
    if (outcome === 'unknown') {
      await enqueueScheduledEvent(tx, { profileId: post.profileId, postId, status: 'unconfirmed', errors, postIds: [], subAction: 'unconfirmed', at: now });
    } else if (post.scheduleDate === null) {
      // A scheduled post's end sends its `scheduled` event (engine); an immediate post's caller saw `processing`.
      await enqueueScheduledEvent(tx, { profileId: post.profileId, postId, status: 'error', errors, postIds: [], at: now });
    }
  });
}

function errorOf(failure: PublishFailure): NonNullable<StoredPlatform['error']> {
  return { code: failure.code, message: failure.message, ...(failure.details && { details: failure.details }), retryAvailable: failure.retryAvailable };
}
