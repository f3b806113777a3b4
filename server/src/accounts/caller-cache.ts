/**
 * @module
 * API key (and Profile-Key) → account and profile, kept in memory so an authenticated request does not pay two
 * SELECTs and their row mapping every time. Correctness over speed:
 * - Every write of this process that can change an answer (key rotation, account update, profile deletion) clears
 *   the whole cache through the stores (accounts/store.ts, accounts/admin/store.ts), so a rotated key stops
 *   working on this instance at the next request.
 * - Writes by another process (the admin CLI, a second service on the same SQLite file) are seen through the
 *   driver's `foreignCommitStamp` (SQLite's `data_version`), checked before every lookup as core/db/commit-watch.ts
 *   reads it (once per turn of requests): any commit from elsewhere clears the cache.
 * - PostgreSQL cannot say cheaply whether another instance committed, so there the cache is off (stamp null) and
 *   every request reads the database: instances never serve a rotated key.
 * Only hits are kept (an unknown key always asks the database). Entries are few (one per key and profile key in use).
 */
import { foreignCommitStamp } from '../core/db/commit-watch.js';
import type { SqlDriver } from '../core/db/sql-driver.js';
import type { Account, Profile } from '../core/db/storage-types.js';

/** The API key's and Profile-Key's hashes, as stored (the profile key's null when none is sent). */
export interface KeyHashes {
  apiKey: string;
  profileKey: string | null;
}

export interface Caller {
  account: Account;
  /** The Primary Profile, or the one the Profile-Key names; null when that key matches no live profile. */
  profile: Profile | null;
}

/** Bounds memory if a caller cycles through many valid Profile-Keys; clearing is always safe. */
const MAX_ENTRIES = 10_000;

export class CallerCache {
  readonly #driver: SqlDriver;
  readonly #entries = new Map<string, Caller>();
  #generation = 0;
  #lastStamp: number | null = null;

  constructor(driver: SqlDriver) {
    this.#driver = driver;
  }

  /** Where a lookup for these hashes is kept. */
  static keyOf(apiKeyHash: string, profileKeyHash: string | null): string {
    return profileKeyHash === null ? apiKeyHash : `${apiKeyHash} ${profileKeyHash}`;
  }

  /** The generation before a database read; `remember` keeps the result only if nothing was cleared since. */
  get generation(): number {
    return this.#generation;
  }

  find(key: string): Caller | undefined {
    const stamp = foreignCommitStamp(this.#driver);
    if (stamp !== this.#lastStamp) {
      this.#lastStamp = stamp;
      this.clear();
    }
    return this.#lastStamp === null ? undefined : this.#entries.get(key);
  }

  remember(key: string, caller: Caller, generationBeforeRead: number): void {
    if (generationBeforeRead !== this.#generation || this.#lastStamp === null) return;
    if (this.#entries.size >= MAX_ENTRIES) this.#entries.clear();
    this.#entries.set(key, caller);
  }

  clear(): void {
    this.#generation += 1;
    this.#entries.clear();
  }
}

const caches = new WeakMap<SqlDriver, CallerCache>();

/** The one cache of a database driver, shared by every store built on it (so the admin store can clear it). */
export function callerCacheOf(driver: SqlDriver): CallerCache {
  let cache = caches.get(driver);
  if (!cache) {
    cache = new CallerCache(driver);
    caches.set(driver, cache);
  }
  return cache;
}
