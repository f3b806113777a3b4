/**
 * @module
 * How far behind the event loop runs, so the job worker can stop claiming while it is far behind (issue 31): with
 * hundreds of attempts in flight on a CPU-starved machine every claim added work the loop could not serve in time,
 * and 21 of 600 attempts ran into the 30 s outbound time limit (none with 32 in flight). Pausing the claims lets the
 * attempts in hand finish; the due jobs wait in the database, where another instance may take them.
 * Node's event-loop delay histogram samples the loop; this reads its mean over short windows.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';

/** The histogram's sampling period: each sample is this long when the loop is free. */
const RESOLUTION_MS = 10;
/** How often the mean is taken (and the histogram restarted): short enough to resume claims soon after the lag ends. */
export const LOOP_LAG_WINDOW_MS = 500;

export interface LoopLag {
  /** The event loop's mean lag over the last whole window, in ms (0 before the first). */
  currentMs(): number;
  stop(): void;
}

export function watchLoopLag(windowMs = LOOP_LAG_WINDOW_MS): LoopLag {
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  histogram.enable();
  let lagMs = 0;
  let windowStart = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    const sampled = histogram.count > 0 ? histogram.mean / 1e6 - RESOLUTION_MS : 0;
    // A loop blocked for the whole window leaves no sample: this timer's own lateness tells it then.
    const late = now - windowStart - windowMs;
    lagMs = Math.max(0, sampled, late);
    windowStart = now;
    histogram.reset();
  }, windowMs);
  timer.unref();
  return {
    currentMs: () => lagMs,
    stop() {
      clearInterval(timer);
      histogram.disable();
    },
  };
}
