/**
 * @module
 * Keeps a job's lease while its handler runs. A network call may take as long as the outbound timeout, which can
 * outlast the lease: without renewal another worker would take the job over mid-call and commit again (issue 30,
 * case 1). The lease is renewed every third of its length on a real timer (the lease itself runs on the lease clock,
 * core/jobs/job-store.ts), and a refused renewal is remembered: the lease was lost, and the holder must start no
 * irreversible call (the engine fences each one in the database anyway, publishing/lease-held-call.ts).
 * All the jobs one store holds with one lease length are renewed together, one statement per tick (JobStore.renewAll):
 * a short lease (a crashed instance's jobs are taken over sooner) then costs one write per tick, not one per job.
 */
import type { Job, JobStore } from './job-store.js';

export interface LeaseKeeper {
  /** True once a renewal was refused (another worker holds the job now). */
  readonly lost: boolean;
  stop(): void;
}

interface Held {
  job: Job;
  lost: boolean;
  log: (line: string) => void;
}

/** The jobs of one store held with one lease length, renewed by one timer while any is held. */
class SharedRenewal {
  readonly #held = new Set<Held>();
  #timer: NodeJS.Timeout | null = null;
  #renewing = false;

  constructor(
    readonly store: JobStore,
    readonly leaseMs: number,
  ) {}

  add(held: Held): void {
    this.#held.add(held);
    if (this.#timer) return;
    this.#timer = setInterval(() => void this.#renew(), Math.max(10, Math.floor(this.leaseMs / 3)));
    this.#timer.unref();
  }

  remove(held: Held): void {
    this.#held.delete(held);
    if (this.#held.size === 0 && this.#timer) {
      clearInterval(this.#timer);
      this.#timer = null;
    }
  }

  async #renew(): Promise<void> {
    if (this.#renewing || this.#held.size === 0) return;
    this.#renewing = true;
    const batch = [...this.#held];
    try {
      const renewed = await this.store.renewAll(batch.map((held) => held.job), this.leaseMs);
      for (const held of batch) {
        if (renewed.has(`${held.job.id}:${held.job.leaseToken}`) || !this.#held.has(held)) continue;
        held.lost = true;
        this.#held.delete(held);
        held.log(`job ${held.job.id} ${held.job.kind}: lease lost while running`);
      }
    } catch (error) {
      // A failed renewal (database briefly away) is tried again at the next tick; the fence before a send decides.
      for (const held of batch) held.log(`job ${held.job.id} lease renewal failed: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      this.#renewing = false;
    }
  }
}

const renewals = new WeakMap<JobStore, Map<number, SharedRenewal>>();

export function keepLease(store: JobStore, job: Job, leaseMs: number, log: (line: string) => void = () => {}): LeaseKeeper {
  let byLength = renewals.get(store);
  if (!byLength) renewals.set(store, (byLength = new Map()));
  let renewal = byLength.get(leaseMs);
  if (!renewal) byLength.set(leaseMs, (renewal = new SharedRenewal(store, leaseMs)));
  const held: Held = { job, lost: false, log };
  renewal.add(held);
  const shared = renewal;
  return {
    get lost() {
      return held.lost;
    },
    stop: () => shared.remove(held),
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
