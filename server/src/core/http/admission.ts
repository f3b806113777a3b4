/**
 * @module
 * Admission of `POST /api/post` (issue 31: "other routes keep ≥ 80 % of their throughput while posts are created").
 * The service is one event loop, and an accepted post costs several times what a link-session request does, so
 * creates sent without pause take most of the loop. While the loop is saturated (busy `SATURATED` of the last
 * window) and other requests keep arriving, creates are started at a pace that keeps their share of the loop's busy
 * time at `share`; a loop with room to spare starves nobody, so there creates run as they come, however much else
 * arrives; the rest wait in a queue (FIFO per API key, the
 * keys taken in turn), and are never refused or dropped once queued. When no other request has arrived for
 * `QUIET_MS`, creates run as they come, as before, and the queue is released at once. Past `queueMax` waiting
 * creates, a create is answered 429 (code 510, `Retry-After`), as the other request limits answer.
 *
 * A create's cost is not visible per request on one loop (its work is spread over many turns, beside other work),
 * so it is estimated in windows of `WINDOW_MS` as two factors:
 * - its CPU time, from the process's CPU time in windows in which creates were answered and no other request
 *   arrived (windows with both are not split: with few paced creates among many other requests the split's error
 *   lands on the creates and feeds back; measured, the estimate grew to ~18 ms and creates fell to 8/s), so while
 *   other requests never stop, the CPU time last measured holds (`FIRST_CREATE_MS` until then);
 * - the loop's stretch now, its busy time (perf_hooks' event-loop utilization) over the process's CPU time in
 *   every window, whatever ran: on a machine whose cores are shared the loop takes longer than its CPU time (at
 *   load 10-15 on 2 cores, a create's busy time alone measured 7-46 ms), and a busy time measured alone would be
 *   stale by the time other requests arrive.
 * A create's loop time is their product.
 *
 * Hand-written: the npm limiters (p-queue, bottleneck) pace by count or time, not by a share of the loop that
 * applies only while other requests wait, and load shedders (under-pressure) refuse instead of queueing.
 */
import { performance } from 'node:perf_hooks';
import { ErrorCode } from '@social-link-kit/protocol';
import { ApiError } from '../errors.js';

export interface AdmissionSettings {
  /** The largest share of the loop's busy time creates take while other requests arrive (0-1); 0 turns admission off. */
  share: number;
  /** Creates waiting at once past which a create is answered 429. */
  queueMax: number;
}

/** What the gate reads of time: injected by tests, the real clock and loop otherwise. */
export interface AdmissionClock {
  /** Milliseconds, monotonic. */
  now(): number;
  /** The loop's busy time so far, in milliseconds. */
  loopBusyMs(): number;
  /** The process's CPU time so far (user and system), in milliseconds. */
  cpuMs(): number;
}

/** One decision, for a test's observer: admitted at once, queued, released from the queue, or refused (429). */
export interface AdmissionEvent {
  kind: 'admitted' | 'queued' | 'released' | 'refused';
  key: string;
  /** The create's arrival number at the gate (1, 2, …): a key's creates are released in its order. */
  ticket: number;
  /** Creates waiting after this decision. */
  waiting: number;
}

/** No other request for this long: nothing else waits, creates run as they come. */
export const QUIET_MS = 50;
/** The loop's busy share of a window from which it is saturated: below it, creates run as they come. */
export const SATURATED = 0.9;
/** The length of a window in which the loop's busy time is attributed. */
const WINDOW_MS = 100;
/** A create's CPU time until one is measured (ms; about what an accept costs on SQLite). */
const FIRST_CREATE_MS = 1.5;
/** Waiting creates started together while paced (see #release). */
const RELEASE_AT_ONCE = 4;
/** Weight of a new window's estimate. */
const ALPHA = 0.25;

const realClock: AdmissionClock = {
  now: () => performance.now(),
  loopBusyMs: () => performance.eventLoopUtilization().active,
  cpuMs: () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  },
};

export class AdmissionGate {
  readonly #settings: AdmissionSettings;
  #clock: AdmissionClock;
  #observer: ((event: AdmissionEvent) => void) | null = null;
  /** Waiting creates by API key, each in arrival order; the Map's order is the keys' turn. */
  readonly #queues = new Map<string, { ticket: number; resolve: () => void }[]>();
  #waiting = 0;
  #tickets = 0;
  #lastOtherAt = -Infinity;
  /** The earliest time the next create may start while other requests arrive. */
  #nextAt = -Infinity;
  #timer: NodeJS.Timeout | null = null;
  /** A create's CPU time, and the loop's busy time per CPU time (see the module's comment). */
  #createCpuMs = FIRST_CREATE_MS;
  #stretch = 1;
  #windowStart: number;
  #busyAtStart: number;
  #cpuAtStart: number;
  #createsDone = 0;
  #othersSeen = 0;
  /** Whether the loop was saturated in the last window; taken as saturated until a window has been measured. */
  #saturated = true;

  constructor(settings: AdmissionSettings, clock: AdmissionClock = realClock) {
    this.#settings = settings;
    this.#clock = clock;
    this.#windowStart = clock.now();
    this.#busyAtStart = clock.loopBusyMs();
    this.#cpuAtStart = clock.cpuMs();
  }

  /** Test hook: every decision, as it is taken. */
  observe(observer: ((event: AdmissionEvent) => void) | null): void {
    this.#observer = observer;
  }

  /** Test hook: another clock from now on (a test's, which moves only when told), with the gate's times reset. */
  useClock(clock: AdmissionClock): void {
    this.#clock = clock;
    this.#windowStart = clock.now();
    this.#busyAtStart = clock.loopBusyMs();
    this.#cpuAtStart = clock.cpuMs();
    this.#lastOtherAt = -Infinity;
    this.#nextAt = -Infinity;
    this.#saturated = true;
  }

  /** The estimated loop time of one create (ms). */
  get createMs(): number {
    return this.#createCpuMs * this.#stretch;
  }

  get waiting(): number {
    return this.#waiting;
  }

  /** Another request arrived. */
  otherArrived(): void {
    const at = this.#clock.now();
    this.#lastOtherAt = at;
    this.#othersSeen++;
    if (at - this.#windowStart >= WINDOW_MS) this.#closeWindow(at);
  }

  /** A create that was admitted has been answered. */
  createDone(): void {
    this.#createsDone++;
    const now = this.#clock.now();
    if (now - this.#windowStart >= WINDOW_MS) this.#closeWindow(now);
  }

  /**
   * Called before a create of `key`'s runs: null when it may run now, else a promise that resolves when it may
   * (never rejected). Throws the 429 when the queue is full.
   */
  admit(key: string): Promise<void> | null {
    const now = this.#clock.now();
    const ticket = ++this.#tickets;
    if (this.#waiting === 0) {
      if (!this.#othersActive(now)) {
        this.#nextAt = now;
        this.#emit('admitted', key, ticket);
        return null;
      }
      if (now >= this.#nextAt) {
        this.#advance(now);
        this.#emit('admitted', key, ticket);
        return null;
      }
    }
    if (this.#waiting >= this.#settings.queueMax) {
      this.#emit('refused', key, ticket);
      const seconds = Math.max(1, Math.ceil((this.#waiting * this.#spacingMs()) / 1000));
      throw new ApiError(429, ErrorCode.rateLimited, `Too many posts waiting to be created. Try again in ${seconds} s.`, {
        action: 'post',
        details: { retryAfter: seconds },
        retryAvailable: true,
        headers: { 'Retry-After': String(seconds) },
      });
    }
    return new Promise<void>((resolve) => {
      const queue = this.#queues.get(key);
      if (queue) queue.push({ ticket, resolve });
      else this.#queues.set(key, [{ ticket, resolve }]);
      this.#waiting++;
      this.#emit('queued', key, ticket);
      this.#schedule(now);
    });
  }

  /** Other requests would wait behind creates: they keep arriving, and the loop has no room to spare. */
  #othersActive(now: number): boolean {
    return this.#saturated && now - this.#lastOtherAt < QUIET_MS;
  }

  /** The time between two creates' starts that keeps creates at their share of the loop. */
  #spacingMs(): number {
    return this.createMs / this.#settings.share;
  }

  /** `creates` started now: the next may start once they have had their share. */
  #advance(now: number, creates = 1): void {
    this.#nextAt = Math.max(this.#nextAt, now) + creates * this.#spacingMs();
  }

  /** Wakes the queue when the next create may start, or when other requests have stopped arriving. */
  #schedule(now: number): void {
    if (this.#timer || this.#waiting === 0) return;
    const at = Math.min(this.#nextAt, this.#lastOtherAt + QUIET_MS);
    this.#timer = setTimeout(() => this.#release(), Math.max(0, at - now));
  }

  #release(): void {
    this.#timer = null;
    const now = this.#clock.now();
    if (!this.#othersActive(now)) {
      while (this.#waiting > 0) this.#releaseOne();
      this.#nextAt = now;
    } else if (now >= this.#nextAt) {
      // Up to RELEASE_AT_ONCE together: their writes share one commit (db/write-batch.ts groups a turn's writes),
      // where creates started one by one would each pay a commit.
      const creates = Math.min(RELEASE_AT_ONCE, this.#waiting);
      for (let n = 0; n < creates; n++) this.#releaseOne();
      this.#advance(now, creates);
    }
    this.#schedule(now);
  }

  /** The next waiting create: the first key's oldest, then that key goes to the end of the turn. */
  #releaseOne(): void {
    const [key, queue] = this.#queues.entries().next().value!;
    const { ticket, resolve } = queue.shift()!;
    this.#queues.delete(key);
    if (queue.length > 0) this.#queues.set(key, queue);
    this.#waiting--;
    this.#emit('released', key, ticket);
    resolve();
  }

  /** Every window moves the stretch; one of creates alone, a create's CPU time (see the module's comment). */
  #closeWindow(now: number): void {
    const busy = this.#clock.loopBusyMs();
    const cpu = this.#clock.cpuMs();
    const cpuSpent = cpu - this.#cpuAtStart;
    this.#saturated = busy - this.#busyAtStart >= SATURATED * (now - this.#windowStart);
    // A window with almost no CPU spent says nothing of either; nor does a long one (no request for a while): it
    // would hold the background work of that while (job polls, renewals) as the creates' own.
    if (cpuSpent >= 1 && now - this.#windowStart <= 2 * WINDOW_MS) {
      this.#stretch = blend(this.#stretch, (busy - this.#busyAtStart) / cpuSpent, 0.5, 20);
      if (this.#createsDone > 0 && this.#othersSeen === 0) this.#createCpuMs = blend(this.#createCpuMs, cpuSpent / this.#createsDone, 0.05, 100);
    }
    this.#windowStart = now;
    this.#busyAtStart = busy;
    this.#cpuAtStart = cpu;
    this.#createsDone = 0;
    this.#othersSeen = 0;
  }

  #emit(kind: AdmissionEvent['kind'], key: string, ticket: number): void {
    this.#observer?.({ kind, key, ticket, waiting: this.#waiting });
  }
}

/** The running estimate moved towards a new sample, kept within [low, high]. */
function blend(estimate: number, sample: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, estimate + ALPHA * (sample - estimate)));
}
