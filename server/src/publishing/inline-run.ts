/**
 * @module
 * An immediate post's request runs its publish jobs itself (leased, so a crashed request's jobs are taken over by
 * a worker) and answers with what is known once they end or its budget is spent; the rest continue as jobs.
 */
import type { Clock } from '../core/clock.js';
import type { Job, JobStore } from '../core/jobs/job-store.js';
import type { JobOutcome } from '../core/jobs/job-worker.js';
import { withLease } from '../core/jobs/lease-keeper.js';
import type { PublishingEngine } from './engine.js';
import type { PostStore } from './post-store.js';

const COMMENT_POLL_MS = 100;

export interface InlineRunDeps {
  store: PostStore;
  jobs: JobStore;
  engine: PublishingEngine;
  clock: Clock;
  /** How long an immediate post's request waits for its attempts before answering with what is known. */
  inlineBudgetMs: number;
  /** How long after the post its first comment goes out; an immediate post's answer waits for it (4.9 rule 5). */
  firstCommentDelayMs?: number;
  /** Lease of the jobs an immediate request runs inline (a crashed request's jobs are taken over after it). */
  leaseMs: number;
}

/** Runs the leased jobs of an immediate post now; whatever is not finished within the budget continues as a job. */
export async function runInline(deps: InlineRunDeps, jobs: Job[]): Promise<void> {
  const { engine, jobs: jobStore, clock } = deps;
  const runs = Promise.all(
    jobs.map(async (job) => {
      let outcome: JobOutcome;
      try {
        outcome = await withLease(jobStore, job, deps.leaseMs, () => engine.runPublishJob(job));
      } catch (error) {
        // Left leased: when the lease ends a worker resumes it (reconcile if a commit started).
        void error;
        return;
      }
      if (outcome.kind === 'done') {
        if (!outcome.recorded) await jobStore.complete(job, clock());
      } else if (outcome.kind === 'retry') await jobStore.reschedule(job, outcome.runAt, outcome.error ?? null, outcome.payload);
      else await jobStore.fail(job, clock(), outcome.error);
    }),
  );
  let timer: NodeJS.Timeout | undefined;
  const budget = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, deps.inlineBudgetMs);
  });
  await Promise.race([runs, budget]);
  clearTimeout(timer);
  // The answer reads the post and its rows again right after this (post-service.ts): one read transaction on SQLite.
  deps.store.db.groupReads();
}

/**
 * Spec 4.9 rule 5: for networks other than tiktok the answer carries the first comment's outcome, so it waits
 * the comment's delay (about 20 s) and the comment (the first-comment job, run by the worker). A comment still
 * pending after that shows `pending` and is reported on GET /api/post/:id.
 */
export async function awaitFirstComments(deps: InlineRunDeps, id: string): Promise<void> {
  const deadline = Date.now() + (deps.firstCommentDelayMs ?? 20_000) + deps.inlineBudgetMs;
  for (;;) {
    const rows = await deps.store.listPlatforms(id);
    const waiting = rows.some((row) => row.platform !== 'tiktok' && row.status === 'success' && row.firstComment?.status === 'pending');
    if (!waiting || Date.now() >= deadline) return;
    await new Promise((resolve) => setTimeout(resolve, COMMENT_POLL_MS));
  }
}
