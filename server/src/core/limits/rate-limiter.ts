/**
 * @module
 * The counter store behind the abuse limits, and its in-memory implementation (one process: the SQLite backend).
 * With PostgreSQL the counters live in the database instead (shared-rate-limiter.ts), so instances behind a
 * balancer share one budget rather than each granting the full limit.
 */
export interface RateDecision {
  allowed: boolean;
  /** When the window resets, in ms from now (for `Retry-After`). */
  retryAfterMs: number;
}

export interface RateLimiter {
  /**
   * Counts one event for `key` and says whether it is within `limit` per `windowMs`. A window opens at the key's
   * first event and lasts `windowMs` (fixed window, not aligned to the clock).
   */
  hit(key: string, limit: number, windowMs: number, now: number): Promise<RateDecision>;
}

export function createMemoryRateLimiter(maxKeys = 100_000): RateLimiter {
  const windows = new Map<string, { start: number; count: number }>();
  return {
    async hit(key, limit, windowMs, now) {
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
