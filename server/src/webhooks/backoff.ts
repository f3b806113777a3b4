/**
 * @module
 * Retry delay after a failed delivery: exponential from `baseMs`, capped at `maxMs`, with "equal jitter"
 * (half fixed, half random) so receivers coming back up are not hit by every retry at the same instant.
 */
export function retryDelayMs(attempts: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
  const exponential = Math.min(maxMs, baseMs * 2 ** Math.max(0, Math.min(attempts - 1, 30)));
  return Math.round(exponential / 2 + (exponential / 2) * random());
}
