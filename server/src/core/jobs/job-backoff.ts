/**
 * @module
 * Delay before a job runs again after a transient failure: exponential from `baseMs`, capped at `maxMs`, with
 * equal jitter so many failed jobs do not all come back at the same instant. A network's Retry-After wins when longer.
 */
export function jobRetryDelayMs(attempts: number, baseMs: number, maxMs: number, retryAfterMs = 0, random: () => number = Math.random): number {
  const exponential = Math.min(maxMs, baseMs * 2 ** Math.max(0, Math.min(attempts - 1, 30)));
  return Math.max(retryAfterMs, Math.round(exponential / 2 + (exponential / 2) * random()));
}
