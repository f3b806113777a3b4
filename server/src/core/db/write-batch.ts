/**
 * @module
 * Group commit for SQLite: the single-statement writes that arrive in one event-loop turn share one transaction,
 * so they pay for one fsync instead of one each. Every caller is answered only after that COMMIT returned, so
 * what a caller was told is written has reached the WAL (and, at `synchronous=FULL`, the disk) exactly as with one
 * commit per write. Under `SQLITE_SYNCHRONOUS=mixed` a batch whose writes all need only survive a process crash
 * (link-session creates) is committed at `synchronous=NORMAL`, without the fsync; a batch with any other write is
 * committed at FULL, which makes every write of the batch durable.
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

/** Statements that switch the connection between its FULL level and NORMAL (only allowed outside a transaction). */
export interface SynchronousSwitch {
  toNormal: Database.Statement;
  toFull: Database.Statement;
}

/** What a test may observe of a commit: a transaction, or a batch of writes (their SQL); the level it commits at. */
export interface CommitObservation {
  writes: string[] | 'transaction';
  synchronous: 'FULL' | 'NORMAL' | 'OTHER';
}

export type CommitObserver = (observation: CommitObservation) => void;

/** Asks SQLite itself (not our intention) which level the connection is at; only when a test observes. */
export function observeCommit(db: Database.Database, writes: readonly PendingWrite[] | 'transaction', observer: CommitObserver | null): void {
  if (!observer) return;
  const level = db.pragma('synchronous', { simple: true }) as number;
  observer({
    writes: writes === 'transaction' ? writes : writes.map((write) => write.statement.source),
    synchronous: level === 2 ? 'FULL' : level === 1 ? 'NORMAL' : 'OTHER',
  });
}

/**
 * Runs `writes` in one `BEGIN IMMEDIATE … COMMIT` and settles each. A statement that fails (a constraint) is
 * undone alone by SQLite and fails only its caller; an error that ends the whole transaction (disk full, I/O)
 * or a failed COMMIT fails every caller, since none of their writes was kept. `relaxable` is given under
 * `SQLITE_SYNCHRONOUS=mixed` only.
 */
export function commitWriteBatch(
  db: Database.Database,
  writes: readonly PendingWrite[],
  relaxable: SynchronousSwitch | null,
  observer: CommitObserver | null = null,
): void {
  const relaxed = relaxable !== null && writes.every((write) => write.durability === 'process-crash');
  if (relaxed) relaxable.toNormal.run();
  try {
    commitAtCurrentLevel(db, writes, observer);
  } finally {
    if (relaxed) relaxable.toFull.run();
  }
}

function commitAtCurrentLevel(db: Database.Database, writes: readonly PendingWrite[], observer: CommitObserver | null): void {
  if (writes.length === 1) {
    const only = writes[0]!;
    observeCommit(db, writes, observer);
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
    observeCommit(db, writes, observer);
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
