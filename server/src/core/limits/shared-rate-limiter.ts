/**
 * @module
 * Abuse-limit counters kept in the database, for several instances on one PostgreSQL: every instance counts into
 * the same window, so a client spreading requests over instances still meets one limit (checklist G.35).
 */
import type { RateLimiter } from './rate-limiter.js';

/** What the shared limiter needs from the database: one atomic count per hit (PostgresStorage has it). */
export interface RateLimitCounterStore {
  countRateLimitHit(key: string, windowMs: number, now: number): Promise<{ windowStart: number; count: number }>;
}

export function createSharedRateLimiter(store: RateLimitCounterStore): RateLimiter {
  return {
    async hit(key, limit, windowMs, now) {
      const { windowStart, count } = await store.countRateLimitHit(key, windowMs, now);
      return { allowed: count <= limit, retryAfterMs: Math.max(0, windowStart + windowMs - now) };
    },
  };
}
