/**
 * @module
 * Group commit for SQLite: the single-statement writes that arrive in one event-loop turn share one transaction,
 * so they pay for one commit instead of one each. The commit itself writes the WAL without a sync; the driver
 * answers each caller after it, at once for a write that needs only survive a process crash (link-session
 * creates under `SQLITE_SYNCHRONOUS=mixed`) and after a grouped fdatasync of the WAL for every other
 * (wal-sync.ts).
 */
import type Database from 'better-sqlite3';
import type { SqlParams, WriteDurability } from './sql-driver.js';

export interface PendingWrite {
  statement: Database.Statement;
  params: SqlParams;
  durability: WriteDurability;
  resolve: (changes: number) => void;
  reject: (error: unknown) => void;
}

/** What a test may observe of a commit: a transaction or a batch of writes (their SQL), and whether any answer waits for a WAL sync. */
export interface CommitObservation {
  writes: string[] | 'transaction';
  awaitsSync: boolean;
}

export type CommitObserver = (observation: CommitObservation) => void;

/** What became of one write of a batch. */
export type WriteOutcome = { changes: number } | { error: unknown };

/**
 * Runs `writes` in one `BEGIN IMMEDIATE … COMMIT` and returns each one's outcome, in order. A statement that
 * fails (a constraint) is undone alone by SQLite and fails only its caller; an error that ends the whole
 * transaction (disk full, I/O) or a failed COMMIT fails every write, since none of them was kept.
 */
export function commitWriteBatch(db: Database.Database, writes: readonly PendingWrite[]): WriteOutcome[] {
  if (writes.length === 1) {
    const only = writes[0]!;
    try {
      return [{ changes: only.statement.run(...only.params).changes }];
    } catch (error) {
      return [{ error }];
    }
  }
  const outcomes: WriteOutcome[] = [];
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
    return writes.map(() => ({ error }));
  }
  return outcomes;
}
