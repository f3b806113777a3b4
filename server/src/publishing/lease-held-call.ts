/**
 * @module
 * An irreversible call (a post's commit, a first comment) starts only while this worker holds the job's lease: the
 * call's start is recorded in the transaction that checks and extends the lease, so a worker whose lease ran out
 * (another one took the job over) records nothing and never makes the call. Then every request of the call that
 * can change something is fenced again right before it is sent (fenceSends).
 */
import type { Job } from '../core/jobs/job-store.js';
import type { JobOutcome } from '../core/jobs/job-worker.js';
import type { PublishContext } from '../networks/publish-adapter.js';
import { setTimeout as sleep } from 'node:timers/promises';
import type { SqlExecutor } from '../core/db/sql-driver.js';
import type { EngineDeps } from './engine-deps.js';

export type LeaseHeldDeps = Pick<EngineDeps, 'store' | 'jobs' | 'leaseMs' | 'callDeadlineMs' | 'log'>;

/**
 * Records a call's start (`write`) only while `job`'s lease is held, in one transaction that also extends the
 * lease. Without a job (tests running an attempt by hand) the write runs alone. False when the lease was lost.
 */
export async function startWhileLeaseHeld(deps: LeaseHeldDeps, job: Job | undefined, write: (tx: SqlExecutor) => Promise<boolean>): Promise<boolean> {
  const { store, jobs, leaseMs } = deps;
  return store.db.transaction(async (tx) => {
    if (job && !(await jobs.renew(job, leaseMs ?? 60_000, tx))) {
      deps.log(`publish ${job.subject}: lease of job ${job.id} lost before the commit; not committing`);
      return false;
    }
    return write(tx);
  });
}

/** Requests that only read (never make anything on the network): sent without a fence. */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Thrown by a fenced send the lease no longer covers: the request was not sent. */
export class LeaseLostError extends Error {
  constructor(job: Job) {
    super(`the lease of job ${job.id} is no longer held: the request was not sent (left to reconcile)`);
  }
}

export interface FencedCall {
  /** The context whose fetch fences every request that can change something (post, comment, each thread part). */
  ctx: PublishContext;
  /** True once a fence refused (or could not be checked): nothing more was sent, and the result must not be recorded. */
  readonly lost: boolean;
  /** Clears the note of an answered send still set (oneSend); for a call that threw, whose job no result step releases. */
  clearAnswered(): Promise<void>;
}

/**
 * Fences every sending request of an irreversible call: immediately before it goes out, one statement checks in the
 * database that this worker's lease is still on the job and has not run out (JobStore.fence, the database's clock on
 * PostgreSQL) and extends it. A paused process (SIGSTOP, a blocked event loop, a clock jump) whose lease ran out and
 * whose job another worker took over therefore never sends again; the other worker reconciles. Left open: a pause
 * longer than the lease between the fence and the request's bytes leaving. Without a job (an attempt run by hand in
 * a test) nothing is fenced.
 * A send's answer clears its note (`call_until`), so a takeover after a crash between the parts of a thread does not
 * wait out the deadline of a part that was answered. `oneSend`: the call ends with its answer (a commit on a network
 * that does not thread): the note is then cleared by the result's transaction (JobStore complete; reschedule and
 * fail too), not by a commit of its own (issue 31); a call that throws clears it (fencedCall). Only a crash or a lost
 * lease between that answer and the result leaves it set: a takeover whose look-up then finds nothing waits until
 * the send's deadline before looking again (waitOutInterruptedCall), the safe side, as for a send never answered.
 */
export function fenceSends(deps: LeaseHeldDeps, job: Job | undefined, ctx: PublishContext, oneSend = false): FencedCall {
  let lost = false;
  /** A send was answered since the last fence, and its note is still set (oneSend). */
  let answered = false;
  const clearAnswered = async () => {
    if (!job || !answered) return;
    answered = false;
    await deps.jobs.callAnswered(job).catch(() => {});
  };
  const fetch: PublishContext['fetch'] = async (url, init) => {
    if (!job || READS.has((init?.method ?? 'GET').toUpperCase())) return ctx.fetch(url, init);
    if (!lost) {
      // A fence that cannot be checked (the database is away) counts as refused: not sending is the safe side.
      lost = !(await deps.jobs.fence(job, deps.leaseMs ?? 60_000, deps.callDeadlineMs ?? 0).catch(() => false));
      if (lost) deps.log(`publish ${job.subject}: lease of job ${job.id} not held before a send; not sending (left to reconcile)`);
    }
    if (lost) throw new LeaseLostError(job);
    answered = false;
    try {
      return await ctx.fetch(url, init);
    } finally {
      // Answered (or failed here): a takeover from now on need not wait for this send.
      answered = true;
      if (!oneSend) await clearAnswered();
    }
  };
  return {
    ctx: { ...ctx, fetch },
    get lost() {
      return lost;
    },
    clearAnswered,
  };
}

/** Runs the call; null when a fence refused (whatever the call then returned or threw). */
export async function fencedCall<T>(fenced: FencedCall, call: () => Promise<T>): Promise<T | null> {
  try {
    const result = await call();
    return fenced.lost ? null : result;
  } catch (error) {
    if (fenced.lost) return null;
    // No result step follows a throw (the job is left leased, or released by a worker): its answered send need not
    // hold a takeover back.
    await fenced.clearAnswered();
    throw error;
  }
}

/** What a worker whose fence refused returns: nothing recorded, the job released (if still its own) to reconcile. */
export function leftToReconcile(now: number): JobOutcome {
  return { kind: 'retry', runAt: now, error: 'lease lost before a send; left to reconcile' };
}

/**
 * A send of the worker before may still be on its way: a worker that lost its lease (paused, stalled longer than
 * the lease, or slow on a slow network) waits for its answer until the call's deadline (the outbound time limit),
 * noted by its fence (`call_until`). A lookup before then can miss a post the network makes a moment later, so a
 * takeover that found nothing waits until that deadline has passed (holding the job, its lease renewed) and looks
 * once more before it sends anything. Returns whether it waited. A crash before a send, or after its answer's note
 * was cleared (by a commit of its own, or by the result step: fenceSends), left no note: no wait.
 */
export async function waitOutInterruptedCall(deps: Pick<EngineDeps, 'jobs' | 'log'>, job: Job | undefined, what: string): Promise<boolean> {
  const remaining = job ? await deps.jobs.callPendingMs(job) : 0;
  if (remaining <= 0) return false;
  deps.log(`${what}: a send of the worker before may still be answered; looking again in ${remaining} ms`);
  await sleep(remaining);
  return true;
}
