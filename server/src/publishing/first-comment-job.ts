/**
 * @module
 * The first-comment job: a comment under a published post, about 20 s after it (spec 4.9 rule 5). The comment is an
 * irreversible call too (issue 30, case 4): its start is recorded while the job's lease is held, and a started comment
 * without a result is looked for (first-comment-reconcile.ts) instead of being sent again.
 */
import type { Network } from '@social-link-kit/protocol';
import type { Job } from '../core/jobs/job-store.js';
import type { JobOutcome } from '../core/jobs/job-worker.js';
import { jobRetryDelayMs } from '../core/jobs/job-backoff.js';
import type { PublishContext, PublishFailure } from '../networks/publish-adapter.js';
import type { CrashPoint, EngineDeps } from './engine-deps.js';
import { findFirstComment, type StoredFirstComment } from './first-comment-reconcile.js';
import { fencedCall, fenceSends, leftToReconcile, startWhileLeaseHeld, waitOutInterruptedCall } from './lease-held-call.js';
import type { StoredPlatform, StoredPost } from './post-store.js';

export const FIRST_COMMENT_DELAY_MS = 20_000;

/** The engine's parts a first comment runs with. */
export interface FirstCommentTools {
  deps: EngineDeps;
  context(post: StoredPost, row: StoredPlatform): Promise<PublishContext | PublishFailure>;
  crash(point: CrashPoint): void;
}

export async function runFirstComment(tools: FirstCommentTools, postId: string, platform: Network, attempts: number, job?: Job): Promise<JobOutcome> {
  const { deps } = tools;
  const { store, clock } = deps;
  const post = await store.findPost(postId);
  const row = await store.findPlatform(postId, platform);
  const firstComment = post?.request.firstComment as { comment: string; mediaUrls?: string[] } | undefined;
  if (!post || !row || !firstComment || row.status !== 'success' || !row.networkPostId) return { kind: 'done' };
  const stored = row.firstComment as StoredFirstComment | null;
  // Its outcome is recorded already (a second job for one comment): final, never sent again.
  if (stored && stored.status !== 'pending') return { kind: 'done' };
  const adapter = deps.adapters[platform];
  // The outcome is kept on the platform row, so GET /api/post/:id shows the comment's id or its error.
  const failed = async (code: number, message: string): Promise<JobOutcome> => {
    await store.recordFirstComment(postId, platform, { status: 'error', code, message });
    return { kind: 'failed', error: `${code} ${message}` };
  };
  if (!adapter.comment) return failed(101, `${platform} cannot take comments.`);
  // Spec 4.9 rule 5: the post is published, the comment reports the error.
  const tikTokOptions = post.request.tikTokOptions as { visibility?: unknown } | undefined;
  if (platform === 'tiktok' && tikTokOptions?.visibility !== 'public') return failed(101, 'A first comment on tiktok needs tikTokOptions.visibility "public".');
  const ctx = await tools.context(post, row);
  if ('kind' in ctx) return failed(ctx.code, ctx.message);
  const retryOr = (result: PublishFailure): Promise<JobOutcome> | JobOutcome =>
    result.retryAvailable && attempts < deps.maxAttempts
      ? { kind: 'retry', runAt: clock() + jobRetryDelayMs(attempts, deps.retryBaseMs, deps.retryMaxMs, result.retryAfterMs) }
      : failed(result.code, result.message);
  if (stored?.status === 'pending' && stored.startedAt !== undefined) {
    // A comment call started and its result was never recorded: look for it instead of commenting again.
    let found = await findFirstComment(adapter, ctx, row.networkPostId, firstComment.comment, stored.startedAt);
    // Nothing yet, but the interrupted comment call may still be answered: look again past its deadline.
    if (!found && (await waitOutInterruptedCall(deps, job, `first comment ${postId} ${platform}`))) {
      found = await findFirstComment(adapter, ctx, row.networkPostId, firstComment.comment, stored.startedAt);
    }
    if (found && 'kind' in found) return retryOr(found);
    if (found && 'unknown' in found) {
      return failed(500, `The service stopped while posting the first comment and could not tell whether it went out (${found.unknown}). It was not sent again.`);
    }
    if (found) {
      await store.recordFirstComment(postId, platform, { status: 'success', id: found.id });
      return { kind: 'done' };
    }
  }
  // The call's start is durable before the call, and only while this worker holds the job.
  if (!(await startWhileLeaseHeld(deps, job, async (tx) => (await store.recordFirstComment(postId, platform, { status: 'pending', startedAt: clock() } as StoredFirstComment, tx), true)))) {
    return { kind: 'done' };
  }
  const fenced = fenceSends(deps, job, ctx);
  const result = await fencedCall(fenced, () => adapter.comment!(fenced.ctx, row.networkPostId!, firstComment.comment, firstComment.mediaUrls ?? []));
  if (result === null) return leftToReconcile(clock());
  tools.crash('inside-first-comment');
  if (result.kind === 'failed') return retryOr(result);
  // A tiktok comment waits for processing on the network: it stays pending (spec 4.9 rule 5).
  await store.recordFirstComment(postId, platform, result.kind === 'done' ? { status: 'success', id: result.id } : { status: 'pending' });
  return { kind: 'done' };
}
