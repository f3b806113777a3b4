/**
 * @module
 * The worker loop: claims due jobs, runs each kind's handler, and stops cleanly (finishes the jobs in hand, starts
 * no new claim). Due-ness comes from the service clock; the polling pace and the leases use real time. A handler returns
 * what happened; a handler that throws is retried with backoff until `maxAttempts`, then failed.
 */
import type { Clock } from '../clock.js';
import { jobRetryDelayMs } from './job-backoff.js';
import type { Job, JobStore } from './job-store.js';
import { withLease } from './lease-keeper.js';

/** `recorded`: the handler already marked the job done, in the transaction that recorded its result. */
export type JobOutcome = { kind: 'done'; recorded?: boolean } | { kind: 'retry'; runAt: number; error?: string; payload?: Record<string, unknown> } | { kind: 'failed'; error: string };

export type JobHandler = (job: Job) => Promise<JobOutcome>;

export interface JobWorkerSettings {
  /** Pause between claims when nothing was due. */
  pollMs: number;
  /** How long a claim holds a job, in real time (renewed while the handler runs). */
  leaseMs: number;
  /** Jobs per claim, run concurrently. */
  batchSize: number;
  maxAttempts: number;
  retryBaseMs: number;
  retryMaxMs: number;
  /** Finished jobs are deleted this long after they finished. */
  keepFinishedMs: number;
}

export function readJobWorkerSettings(env: NodeJS.ProcessEnv): JobWorkerSettings {
  const number = (name: string, fallback: number) => {
    const value = Number(env[name]);
    return Number.isFinite(value) && value > 0 ? value : fallback;
  };
  return {
    pollMs: number('JOBS_POLL_MS', 250),
    leaseMs: number('JOBS_LEASE_MS', 60_000),
    batchSize: number('JOBS_BATCH_SIZE', 32),
    maxAttempts: number('JOBS_MAX_ATTEMPTS', 8),
    retryBaseMs: number('JOBS_RETRY_BASE_MS', 5_000),
    retryMaxMs: number('JOBS_RETRY_MAX_MS', 15 * 60_000),
    keepFinishedMs: number('JOBS_KEEP_FINISHED_MS', 7 * 24 * 60 * 60_000),
  };
}

export interface JobWorker {
  /** Runs one claim now (tests, and the loop itself); resolves with how many jobs ran. */
  runOnce(): Promise<number>;
  stop(): Promise<void>;
}

export function startJobWorker(options: {
  store: JobStore;
  clock: Clock;
  settings: JobWorkerSettings;
  handlers: Record<string, JobHandler>;
  log?: (line: string) => void;
  /** Counts each job's outcome (core/observability/metrics.ts); absent = not counted. */
  metrics?: { jobOutcome(kind: string, outcome: JobOutcome['kind']): void };
}): JobWorker {
  const { store, clock, settings, handlers } = options;
  // This worker claims and prunes only the kinds it can run: other workers (webhook delivery) own theirs.
  const kinds = Object.keys(handlers);
  const log = options.log ?? (() => {});
  let stopped = false;
  let wake: (() => void) | null = null;
  let timer: NodeJS.Timeout | null = null;

  async function runJob(job: Job): Promise<void> {
    const handler = handlers[job.kind];
    let outcome: JobOutcome;
    if (!handler) outcome = { kind: 'failed', error: `no handler for job kind ${job.kind}` };
    else {
      try {
        // The lease is renewed while the handler runs: a long network call must not let another worker take the job.
        outcome = await withLease(store, job, settings.leaseMs, () => handler(job), log);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        outcome =
          job.attempts >= settings.maxAttempts
            ? { kind: 'failed', error: message }
            : { kind: 'retry', runAt: clock() + jobRetryDelayMs(job.attempts, settings.retryBaseMs, settings.retryMaxMs), error: message };
        log(`job ${job.id} ${job.kind} threw (attempt ${job.attempts}): ${message}`);
      }
    }
    options.metrics?.jobOutcome(job.kind, outcome.kind);
    if (outcome.kind === 'done') {
      if (!outcome.recorded) await store.complete(job, clock());
    } else if (outcome.kind === 'failed') await store.fail(job, clock(), outcome.error);
    else await store.reschedule(job, outcome.runAt, outcome.error ?? null, outcome.payload);
  }

  let lastPrune = Number.NEGATIVE_INFINITY;
  const PRUNE_EVERY_MS = 60 * 60_000;

  /**
   * Jobs running now. The loop keeps up to `batchSize` in flight and claims again as soon as half of them have
   * finished, so one slow job (a network taking seconds) does not hold back the claim of the next due rows.
   */
  const inFlight = new Set<Promise<void>>();
  let waitingForRoom = false;

  function start(job: Job): void {
    const run: Promise<void> = runJob(job)
      .catch((error) => log(`job ${job.id} not recorded: ${String(error)}`))
      .finally(() => {
        inFlight.delete(run);
        if (waitingForRoom && inFlight.size <= settings.batchSize / 2) wake?.();
      });
    inFlight.add(run);
  }

  /** Claims up to `room` due jobs and starts them; resolves with how many it claimed. */
  async function claimAndStart(room: number): Promise<number> {
    const now = clock();
    // About once an hour (and at start): finished rows are history, not work.
    if (now - lastPrune >= PRUNE_EVERY_MS) {
      lastPrune = now;
      const pruned = await store.prune(now - settings.keepFinishedMs, kinds);
      if (pruned > 0) log(`jobs: deleted ${pruned} finished job(s)`);
    }
    const jobs = await store.claim(now, room, kinds, settings.leaseMs);
    for (const job of jobs) start(job);
    return jobs.length;
  }

  async function runOnce(): Promise<number> {
    const claimed = await claimAndStart(settings.batchSize);
    await Promise.all(inFlight);
    return claimed;
  }

  /** Waits for the poll interval, or (`untilRoom`) until half the jobs in flight have finished. */
  async function pause(untilRoom: boolean): Promise<void> {
    await new Promise<void>((resolve) => {
      wake = resolve;
      waitingForRoom = untilRoom;
      if (!untilRoom) timer = setTimeout(resolve, settings.pollMs);
    });
    wake = null;
    waitingForRoom = false;
    if (timer) clearTimeout(timer);
    timer = null;
  }

  const loop = (async () => {
    while (!stopped) {
      const room = settings.batchSize - inFlight.size;
      let claimed = 0;
      try {
        if (room > 0) claimed = await claimAndStart(room);
      } catch (error) {
        log(`job claim failed: ${error instanceof Error ? error.message : String(error)}`);
      }
      if (stopped) break;
      // Every free place taken: more may be due, so claim again once there is room; else nothing is due until the next poll.
      const full = room <= 0 || claimed >= room;
      if (full && inFlight.size > settings.batchSize / 2) await pause(true);
      else if (!full) await pause(false);
    }
    await Promise.all(inFlight);
  })();

  return {
    runOnce,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      wake?.();
      await loop;
    },
  };
}
