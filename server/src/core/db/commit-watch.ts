/**
 * @module
 * Whether the database may have changed since an in-memory read cache kept an answer (linking/session-read-cache.ts):
 * a stamp that differs whenever any commit could have changed any row, read before every cached answer is served.
 * On SQLite it has two parts, so no write path has to remember to clear a cache:
 * - this connection's own writes: `total_changes()`, the rows inserted, updated or deleted by this connection so
 *   far, counted as each statement completes (a transaction's writes show before its COMMIT; a rollback never
 *   lowers it). Computed without touching the file, so it is cheap.
 * - every other connection's and process's commits (the admin CLI, a second instance on the same file): the
 *   driver's `foreignCommitStamp` (SQLite's `data_version`).
 * Both are read on every call: a cached answer is never older than the last commit that finished before the call.
 * PostgreSQL cannot tell cheaply whether another instance committed, so the stamp is null there and caches stay off.
 */
import type { SqlDriver } from './sql-driver.js';

const OWN_CHANGES = 'SELECT total_changes() AS changes';

/** The current stamp of `driver`'s database, or null where caches built on it must stay off. */
export async function commitStamp(driver: SqlDriver): Promise<string | null> {
  const foreign = driver.foreignCommitStamp();
  if (foreign === null) return null;
  const own = await driver.get(OWN_CHANGES);
  return `${foreign} ${own!.changes as number}`;
}
