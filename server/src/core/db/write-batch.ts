/**
 * @module
 * Group commit for SQLite: the single-statement writes that arrive in one event-loop turn share one transaction,
 * so they pay for one fsync instead of one each. Every caller is answered only after that COMMIT returned, so
 * what a caller was told is written has reached the disk (synchronous=FULL) exactly as with one commit per write.
 */
import type Database from 'better-sqlite3';
import type { SqlParams } from './sql-driver.js';

export interface PendingWrite {
  statement: Database.Statement;
  params: SqlParams;
  resolve: (changes: number) => void;
  reject: (error: unknown) => void;
}

/**
 * Runs `writes` in one `BEGIN IMMEDIATE … COMMIT` and settles each. A statement that fails (a constraint) is
 * undone alone by SQLite and fails only its caller; an error that ends the whole transaction (disk full, I/O)
 * or a failed COMMIT fails every caller, since none of their writes was kept.
 */
export function commitWriteBatch(db: Database.Database, writes: readonly PendingWrite[]): void {
  if (writes.length === 1) {
    const only = writes[0]!;
    try {
      only.resolve(only.statement.run(...only.params).changes);
    } catch (error) {
      only.reject(error);
    }
    return;
  }
  const outcomes: Array<{ changes: number } | { error: unknown }> = [];
  try {
    db.exec('BEGIN IMMEDIATE');
    for (const write of writes) {
      try {
        outcomes.push({ changes: write.statement.run(...write.params).changes });
      } catch (error) {
        if (!db.inTransaction) throw error;
        outcomes.push({ error });
      }
    }
    db.exec('COMMIT');
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    for (const write of writes) write.reject(error);
    return;
  }
  writes.forEach((write, index) => {
    const outcome = outcomes[index]!;
    if ('error' in outcome) write.reject(outcome.error);
    else write.resolve(outcome.changes);
  });
}
