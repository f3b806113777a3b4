/**
 * @module
 * Fixed-window counters for abuse limits. In memory, per process: with several instances behind a balancer the
 * effective limit is multiplied by the instance count (a shared store is future work, noted in the README).
 */
export interface RateDecision {
  allowed: boolean;
  /** When the window resets, in ms from now (for `Retry-After`). */
  retryAfterMs: number;
}

export interface RateLimiter {
  /** Counts one event for `key` and says whether it is within `limit` per `windowMs`. */
  hit(key: string, limit: number, windowMs: number, now: number): RateDecision;
}

export function createMemoryRateLimiter(maxKeys = 100_000): RateLimiter {
  const windows = new Map<string, { start: number; count: number }>();
  return {
    hit(key, limit, windowMs, now) {
      let window = windows.get(key);
      if (!window || now - window.start >= windowMs) {
        // Forget expired windows before the map grows without bound (many distinct IPs).
        if (windows.size >= maxKeys) for (const [k, w] of windows) if (now - w.start >= windowMs) windows.delete(k);
        window = { start: now, count: 0 };
        windows.set(key, window);
      }
      window.count += 1;
      return { allowed: window.count <= limit, retryAfterMs: window.start + windowMs - now };
    },
  };
}
