/**
 * @module
 * Link sessions as `GET /api/profiles/link-sessions/{id}` reads them, kept in memory so a repeated read does not
 * pay a SELECT with its join and row mapping. Correct by construction rather than by remembering to clear it:
 * every answer is served only while the database's commit stamp (core/db/commit-watch.ts) is the one taken before
 * it was read, and that stamp changes with any row this process writes and any commit of another connection or
 * process. So a status change, a completion, a revoke or an admin CLI write is seen by the very next read. What
 * depends on the time (expired or not) is computed from the clock at answer time, never kept. Off on PostgreSQL
 * (several instances share it; the stamp is null there). Only found sessions are kept; the records are frozen
 * because several answers share them.
 */
import type { SqlDriver } from '../core/db/sql-driver.js';
import type { LinkSessionRecord } from '../core/db/storage-types.js';
import { commitStamp } from '../core/db/commit-watch.js';

/** Bounds memory if a caller reads many sessions; clearing is always safe. */
const MAX_ENTRIES = 10_000;

export class SessionReadCache {
  readonly #driver: SqlDriver;
  readonly #entries = new Map<string, LinkSessionRecord>();
  /** The stamp every kept entry was read under. */
  #stamp: string | null = null;

  constructor(driver: SqlDriver) {
    this.#driver = driver;
  }

  /** The session `key` names, from memory while nothing was committed since it was read, else from `read`. */
  async find(key: string, read: () => Promise<LinkSessionRecord | null>): Promise<LinkSessionRecord | null> {
    const stamp = await commitStamp(this.#driver);
    if (stamp === null) return read();
    if (stamp !== this.#stamp) {
      this.#entries.clear();
      this.#stamp = stamp;
    }
    const kept = this.#entries.get(key);
    if (kept) return kept;
    // The stamp was taken before the read: a commit in between leaves the entry under an older stamp than the
    // database's, so the next lookup drops it instead of serving it.
    const session = await read();
    if (session && this.#stamp === stamp) {
      if (this.#entries.size >= MAX_ENTRIES) this.#entries.clear();
      this.#entries.set(key, freeze(session));
    }
    return session;
  }
}

function freeze(session: LinkSessionRecord): LinkSessionRecord {
  Object.freeze(session.completedNetworks);
  if (session.allowedSocial) Object.freeze(session.allowedSocial);
  return Object.freeze(session);
}
