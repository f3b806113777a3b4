/**
 * @module
 * Picks the counter store for the storage backend: shared in the database on PostgreSQL (many instances), in
 * memory on SQLite (one process owns the file).
 */
import type { Storage } from '../db/storage-types.js';
import { createMemoryRateLimiter, type RateLimiter } from './rate-limiter.js';
import { createSharedRateLimiter, type RateLimitCounterStore } from './shared-rate-limiter.js';

export function createRateLimiter(storage: Storage): RateLimiter {
  return hasCounterStore(storage) ? createSharedRateLimiter(storage) : createMemoryRateLimiter();
}

function hasCounterStore(storage: Storage): storage is Storage & RateLimitCounterStore {
  return typeof (storage as Partial<RateLimitCounterStore>).countRateLimitHit === 'function';
}
