/**
 * @module
 * Keeps a job's lease while its handler runs. A network call may take as long as the outbound timeout, which can
 * outlast the lease: without renewal another worker would take the job over mid-call and commit again (issue 30,
 * case 1). The keeper renews the lease every third of its length on a real timer (the lease itself runs on real
 * time, core/jobs/job-store.ts) and remembers when a renewal was refused: the lease was lost, and the holder must start
 * no irreversible call (the engine asks `held()` in the same transaction that marks a commit as started).
 */
import type { Job, JobStore } from './job-store.js';

export interface LeaseKeeper {
  /** True once a renewal was refused (another worker holds the job now). */
  readonly lost: boolean;
  stop(): void;
}

export function keepLease(store: JobStore, job: Job, leaseMs: number, log: (line: string) => void = () => {}): LeaseKeeper {
  let lost = false;
  let renewing = false;
  const timer = setInterval(
    () => {
      if (lost || renewing) return;
      renewing = true;
      store
        .renew(job, leaseMs)
        .then((held) => {
          if (!held) {
            lost = true;
            log(`job ${job.id} ${job.kind}: lease lost while running`);
          }
        })
        // A failed renewal (database briefly away) is tried again at the next tick; the held() check before a commit decides.
        .catch((error) => log(`job ${job.id} lease renewal failed: ${error instanceof Error ? error.message : String(error)}`))
        .finally(() => {
          renewing = false;
        });
    },
    Math.max(10, Math.floor(leaseMs / 3)),
  );
  timer.unref();
  return {
    get lost() {
      return lost;
    },
    stop: () => clearInterval(timer),
  };
}

/** Runs `work` with the job's lease kept alive, then stops renewing. */
export async function withLease<T>(store: JobStore, job: Job, leaseMs: number, work: () => Promise<T>, log?: (line: string) => void): Promise<T> {
  const keeper = keepLease(store, job, leaseMs, log);
  try {
    return await work();
  } finally {
    keeper.stop();
  }
}
