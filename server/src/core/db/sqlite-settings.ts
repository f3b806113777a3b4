/**
 * @module
 * `SQLITE_SYNCHRONOUS`: how hard SQLite pushes each commit to the disk.
 * - `full` (default): every commit is fsynced before it is answered; an answered write survives a process kill,
 *   an OS crash and a power loss.
 * - `normal`: commits reach the OS but are fsynced only at checkpoints; an answered write survives a process kill
 *   (kill -9, a crash of the service), while an OS crash or power loss may lose the last commits (the file stays
 *   consistent). Faster session creation where that trade is acceptable.
 * Any other value is refused at start, so a typo cannot silently weaken durability.
 */
export type SqliteSynchronous = 'full' | 'normal';

export function readSqliteSynchronous(env: NodeJS.ProcessEnv): SqliteSynchronous {
  const value = (env.SQLITE_SYNCHRONOUS ?? 'full').trim().toLowerCase();
  if (value === 'full' || value === 'normal') return value;
  throw new Error(`SQLITE_SYNCHRONOUS must be "full" or "normal", not "${env.SQLITE_SYNCHRONOUS}".`);
}
