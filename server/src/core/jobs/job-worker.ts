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
import { LOOP_LAG_WINDOW_MS, watchLoopLag } from './loop-lag.js';

/** `recorded`: the handler already marked the job done, in the transaction that recorded its result. */
export type JobOutcome = { kind: 'done'; recorded?: boolean } | { kind: 'retry'; runAt: number; error?: string; payload?: Record<string, unknown> } | { kind: 'failed'; error: string };

export type JobHandler = (job: Job) => Promise<JobOutcome>;

export interface JobWorkerSettings {
  /** Pause between claims when nothing was due. */
  pollMs: number;
  /** How long a claim holds a job, in real time (renewed while the handler runs). */
  leaseMs: number;
  /** Jobs per claim (one statement); claims repeat until `maxInFlight` jobs are held. */
  batchSize: number;
  /**
   * Jobs held at once (running, or claimed and waiting for their network's place): most of a publish is waiting on
   * a network, so this is in the hundreds, decoupled from the claim batch. Absent: `batchSize` (tests' literals).
   */
  maxInFlight?: number;
  /** Jobs of one network (`payload.platform`) held at once, so one slow network cannot take every place. Absent: no cap. */
  maxInFlightPerNetwork?: number;
  /** Claims wait while the event loop's mean lag is above this many ms (loop-lag.ts). Absent: claims never wait. */
  maxLoopLagMs?: number;
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
    // Short, so a crashed instance's jobs are taken over within the simulation's lateness bound (15 s); renewing
    // costs one statement per 100 held jobs a third of it (lease-keeper.ts).
    leaseMs: number('JOBS_LEASE_MS', 10_000),
    batchSize: number('JOBS_BATCH_SIZE', 32),
    maxInFlight: number('JOBS_MAX_IN_FLIGHT', 512),
    maxInFlightPerNetwork: number('JOBS_MAX_IN_FLIGHT_PER_NETWORK', 128),
    maxLoopLagMs: number('JOBS_MAX_LOOP_LAG_MS', 100),
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

  const maxInFlight = settings.maxInFlight ?? settings.batchSize;
  const networkCap = settings.maxInFlightPerNetwork ?? Number.POSITIVE_INFINITY;
  /** Jobs running now, and how many of each network among them. */
  const inFlight = new Set<Promise<void>>();
  const running = new Map<string, number>();
  /** Claimed past their network's cap (a claim may bring more of one network than it has places): run next. */
  const waiting = new Map<string, Job[]>();
  let waitingCount = 0;
  let waitingForRoom = false;

  const held = () => inFlight.size + waitingCount;
  const heldOf = (network: string) => (running.get(network) ?? 0) + (waiting.get(network)?.length ?? 0);
  /** Claims again once this many places are free: a claim is a write, so not for every finished job. */
  const claimAgainAt = Math.max(1, Math.floor(Math.min(settings.batchSize, maxInFlight) / 2));

  function networkOf(job: Job): string | null {
    const platform = job.payload.platform;
    return typeof platform === 'string' ? platform : null;
  }

  function start(job: Job): void {
    const network = networkOf(job);
    if (network !== null) running.set(network, (running.get(network) ?? 0) + 1);
    const run: Promise<void> = runJob(job)
      .catch((error) => log(`job ${job.id} not recorded: ${String(error)}`))
      .finally(() => {
        if (network !== null) {
          running.set(network, running.get(network)! - 1);
          const next = waiting.get(network)?.shift();
          if (next) {
            waitingCount--;
            start(next);
          }
        }
        inFlight.delete(run);
        if (waitingForRoom && maxInFlight - held() >= claimAgainAt) wake?.();
      });
    inFlight.add(run);
  }

  /** Starts the job now, or queues it behind its network's running jobs when that network is at its cap. */
  function admit(job: Job): void {
    const network = networkOf(job);
    if (network === null || (running.get(network) ?? 0) < networkCap) return start(job);
    const queue = waiting.get(network) ?? [];
    queue.push(job);
    waiting.set(network, queue);
    waitingCount++;
  }

  /** Claims up to `room` due jobs, none of a network already at its cap, and admits them; resolves with how many. */
  async function claimAndStart(room: number): Promise<number> {
    const now = clock();
    // About once an hour (and at start): finished rows are history, not work.
    if (now - lastPrune >= PRUNE_EVERY_MS) {
      lastPrune = now;
      const pruned = await store.prune(now - settings.keepFinishedMs, kinds);
      if (pruned > 0) log(`jobs: deleted ${pruned} finished job(s)`);
    }
    const full = [...new Set([...running.keys(), ...waiting.keys()])].filter((network) => heldOf(network) >= networkCap);
    const jobs = await store.claim(now, room, kinds, settings.leaseMs, full);
    for (const job of jobs) admit(job);
    return jobs.length;
  }

  async function drain(): Promise<void> {
    while (inFlight.size > 0) await Promise.all(inFlight);
  }

  async function runOnce(): Promise<number> {
    const room = Math.min(settings.batchSize, maxInFlight - held());
    const claimed = room > 0 ? await claimAndStart(room) : 0;
    await drain();
    return claimed;
  }

  const loopLag = settings.maxLoopLagMs === undefined ? null : watchLoopLag();
  let pausedForLag = false;
  /** Whether the event loop is too far behind to take on more jobs; says so in the log when that changes. */
  function loopTooBusy(): boolean {
    const lagMs = loopLag?.currentMs() ?? 0;
    const busy = lagMs > settings.maxLoopLagMs!;
    if (busy !== pausedForLag) log(busy ? `jobs: claims paused, the event loop is ${Math.round(lagMs)} ms behind` : 'jobs: claims resumed');
    pausedForLag = busy;
    return busy;
  }

  /** Waits for the poll interval (or `ms`), or (`untilRoom`) until enough jobs have finished to claim again. */
  async function pause(untilRoom: boolean, ms = settings.pollMs): Promise<void> {
    await new Promise<void>((resolve) => {
      wake = resolve;
      waitingForRoom = untilRoom;
      if (!untilRoom) timer = setTimeout(resolve, ms);
    });
    wake = null;
    waitingForRoom = false;
    if (timer) clearTimeout(timer);
    timer = null;
  }

  const loop = (async () => {
    while (!stopped) {
      if (loopTooBusy()) {
        // The jobs in hand finish first; the lag is measured again within a window.
        await pause(false, Math.min(settings.pollMs, LOOP_LAG_WINDOW_MS));
        continue;
      }
      const room = Math.min(settings.batchSize, maxInFlight - held());
      let claimed = 0;
      try {
        if (room > 0) claimed = await claimAndStart(room);
      } catch (error) {
        log(`job claim failed: ${error instanceof Error ? error.message : String(error)}`);
      }
      if (stopped) break;
      // A full claim: more may be due, so claim again at once while there are places, else once enough are free.
      // A short claim: nothing more is due (for a network with places) until the next poll.
      const full = room <= 0 || claimed >= room;
      if (full && maxInFlight - held() < claimAgainAt) await pause(true);
      else if (!full) await pause(false);
    }
    loopLag?.stop();
    await drain();
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
