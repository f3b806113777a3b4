/**
 * @module
 * An irreversible call (a post's commit, a first comment) starts only while this worker holds the job's lease: the
 * call's start is recorded in the transaction that checks and extends the lease, so a worker whose lease ran out
 * (another one took the job over) records nothing and never makes the call.
 */
import type { Job } from '../core/jobs/job-store.js';
import type { SqlExecutor } from '../core/db/sql-driver.js';
import type { EngineDeps } from './engine.js';

export type LeaseHeldDeps = Pick<EngineDeps, 'store' | 'jobs' | 'leaseMs' | 'log'>;

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
