/**
 * @module
 * `SQLITE_SYNCHRONOUS`: how hard SQLite pushes each commit to the disk. Every answered write survives a kill -9 or
 * crash of the service whatever the setting (WAL mode); the setting decides what also survives an OS crash or a
 * power loss.
 * - `mixed` (default): link-session creates are answered without waiting for an fsync; every other write (linked
 *   accounts, publish attempts, keys, webhooks, …) is answered after an fdatasync of the WAL that covers it (run
 *   off the event loop and shared by the commits that wait at the same time: wal-sync.ts). A power loss may
 *   lose the sessions created since the last fsync (any later fsynced commit or checkpoint makes them durable too,
 *   the WAL being written in order); the integrator then gets "invalid" for such a link and creates a new one.
 * - `full`: every commit is synced before it is answered; every answered write survives a power loss.
 * - `normal`: commits are synced only at checkpoints (or by a later sync); a power loss may lose any of the last
 *   commits (the file stays consistent).
 * Any other value is refused at start, so a typo cannot silently weaken durability.
 */
export type SqliteSynchronous = 'mixed' | 'full' | 'normal';

export function readSqliteSynchronous(env: NodeJS.ProcessEnv): SqliteSynchronous {
  const value = (env.SQLITE_SYNCHRONOUS ?? 'mixed').trim().toLowerCase();
  if (value === 'mixed' || value === 'full' || value === 'normal') return value;
  throw new Error(`SQLITE_SYNCHRONOUS must be "mixed", "full" or "normal", not "${env.SQLITE_SYNCHRONOUS}".`);
}
