/**
 * @module
 * Whether the database may have changed since an in-memory read cache kept an answer (accounts/caller-cache.ts,
 * linking/session-read-cache.ts). On SQLite two numbers tell it, so no write path has to remember to clear a cache:
 * - this connection's own writes: `total_changes()`, the rows inserted, updated or deleted by this connection so
 *   far, counted as each statement completes (a transaction's writes show before its COMMIT; a rollback never
 *   lowers it). It touches no file, so it is read on every call (`commitStamp`).
 * - every other connection's and process's commits (the admin CLI, a second instance on the same file): the
 *   driver's `foreignCommitStamp` (SQLite's `data_version`). That costs a read transaction (about as much as the
 *   SELECT a cache saves), so it is read once per event-loop turn that reads requests: the HTTP listeners call
 *   `requestArrived()` as each request arrives, and a stamp read after the first arrival of a turn serves the
 *   lookups of that turn, until the turn's setImmediate. The requests of a turn were read from their sockets in
 *   the poll phase that began the turn, so a commit that finished before one of them was sent finished before that
 *   phase, and before the read. Outside such a turn (timers, a job, start-up) the stamp is read on every call.
 *   What this does not cover: a pipelining client that commits elsewhere and sends its next request while the
 *   service is still answering the one before, within the same turn; or a poll phase of more than 1,024 ready
 *   sockets, which libuv reads in two polls.
 * PostgreSQL cannot tell cheaply whether another instance committed, so the stamps are null there and caches stay off.
 */
import type { SqlDriver } from './sql-driver.js';

const OWN_CHANGES = 'SELECT total_changes() AS changes';

/** Whether the current turn read a request, and which turn it is (counted at each such turn's end). */
let inRequestTurn = false;
let requestTurn = 0;
const foreignChecks = new WeakMap<SqlDriver, { turn: number; stamp: number | null }>();

function endRequestTurn(): void {
  inRequestTurn = false;
  requestTurn += 1;
}

/** Called by the HTTP listeners as each request arrives, before anything serves it. */
export function requestArrived(): void {
  if (inRequestTurn) return;
  inRequestTurn = true;
  setImmediate(endRequestTurn);
}

/** `driver.foreignCommitStamp()`, read at most once in a turn that reads requests (see the module comment). */
export function foreignCommitStamp(driver: SqlDriver): number | null {
  if (!inRequestTurn) return driver.foreignCommitStamp();
  const checked = foreignChecks.get(driver);
  if (checked && checked.turn === requestTurn) return checked.stamp;
  const stamp = driver.foreignCommitStamp();
  foreignChecks.set(driver, { turn: requestTurn, stamp });
  return stamp;
}

/** A stamp that changes with every commit that could change a row, or null where caches must stay off. */
export async function commitStamp(driver: SqlDriver): Promise<string | null> {
  const foreign = foreignCommitStamp(driver);
  if (foreign === null) return null;
  const own = await driver.get(OWN_CHANGES);
  return `${foreign} ${own!.changes as number}`;
}
