/**
 * @module
 * Picks the counter store for the storage backend: shared in the database on PostgreSQL (many instances), in
 * memory on SQLite (one process owns the file).
 */
import { createMemoryRateLimiter, type RateLimiter } from './rate-limiter.js';
import { createSharedRateLimiter, type RateLimitCounterStore } from './shared-rate-limiter.js';

/** `storage` is the service's storage; only PostgreSQL's has the shared counters. */
export function createRateLimiter(storage: object): RateLimiter {
  return hasCounterStore(storage) ? createSharedRateLimiter(storage) : createMemoryRateLimiter();
}

function hasCounterStore(storage: object): storage is RateLimitCounterStore {
  return typeof (storage as Partial<RateLimitCounterStore>).countRateLimitHit === 'function';
}
