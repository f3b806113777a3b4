/**
 * @module
 * Answers kept in memory while nothing was committed since they were read (issue 31: post reads and history
 * pages, as linking/session-read-cache.ts keeps link sessions). Correct by construction rather than by remembering
 * to clear it: an entry is served only while the database's commit stamp (commit-watch.ts) is the one taken before
 * it was read, and that stamp changes with any row this process writes and any commit of another connection or
 * process. Off where the stamp is null (PostgreSQL: another instance's commits cannot be seen cheaply). The caller
 * puts everything the answer depends on besides the database into the key (the profile, the query, the month);
 * what depends on the clock within a key is checked by `fresh` at each hit.
 */
import { commitStamp } from './commit-watch.js';
import type { SqlDriver } from './sql-driver.js';

/** Bounds memory if callers read many distinct keys; clearing is always safe. */
const MAX_ENTRIES = 10_000;

export class ReadMemory<V> {
  readonly #driver: SqlDriver;
  readonly #entries = new Map<string, V>();
  /** The stamp every kept entry was read under. */
  #stamp: string | null = null;
  /** How much the kept entries weigh (`sizeOf`), against `maxSize`. */
  #size = 0;
  readonly #sizeOf: (value: V) => number;
  readonly #maxSize: number;

  /** `sizeOf` weighs a value (e.g. its text's length) and `maxSize` bounds their sum: a large page cannot pile up. */
  constructor(driver: SqlDriver, bounds: { sizeOf: (value: V) => number; maxSize: number } = { sizeOf: () => 1, maxSize: MAX_ENTRIES }) {
    this.#driver = driver;
    this.#sizeOf = bounds.sizeOf;
    this.#maxSize = bounds.maxSize;
  }

  #clear(): void {
    this.#entries.clear();
    this.#size = 0;
  }

  /**
   * The value `key` names, from memory while nothing was committed since it was read (and `fresh` says it still
   * holds), else from `read`; a null from `read` is not kept.
   */
  async find(key: string, read: () => Promise<V | null>, fresh?: (kept: V) => boolean): Promise<V | null> {
    const stamp = await commitStamp(this.#driver);
    if (stamp === null) return read();
    if (stamp !== this.#stamp) {
      this.#clear();
      this.#stamp = stamp;
    }
    const kept = this.#entries.get(key);
    if (kept !== undefined && (fresh === undefined || fresh(kept))) return kept;
    // The stamp was taken before the read: a commit in between leaves the entry under an older stamp than the
    // database's, so the next lookup drops it instead of serving it.
    const value = await read();
    if (value !== null && this.#stamp === stamp) {
      const replaced = this.#entries.get(key);
      if (replaced !== undefined) this.#size -= this.#sizeOf(replaced);
      const size = this.#sizeOf(value);
      if (this.#entries.size >= MAX_ENTRIES || this.#size + size > this.#maxSize) this.#clear();
      this.#entries.set(key, value);
      this.#size += size;
    }
    return value;
  }
}
