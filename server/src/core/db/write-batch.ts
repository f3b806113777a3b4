/**
 * @module
 * Group commit for SQLite (issue 31): the writes that reach the driver in one event-loop turn, single statements
 * and whole transactions alike, share one `BEGIN IMMEDIATE … COMMIT`, so they pay for one commit (SQLite writes
 * each page they touch to the WAL once, however many of them touched it) instead of one each. A single statement
 * that fails is undone alone by SQLite; each transaction's work runs in a SAVEPOINT, so one that throws is rolled
 * back alone and only its caller sees the error. The driver answers every caller after the COMMIT
 * (sqlite-driver.ts): at once for a write that need only survive a process crash (link-session creates under
 * `SQLITE_SYNCHRONOUS=mixed`), after a grouped fdatasync of the WAL for every other (wal-sync.ts).
 *
 * Reads never see a batch's uncommitted rows: the batch holds the driver's mutex from BEGIN to COMMIT, and a read
 * runs at once only while that mutex is idle (otherwise it queues behind the batch). The batch runs its works one
 * after another without yielding to the event loop (each resumes the next in a microtask), unless a work itself
 * waits for I/O, so a read that queued waits for the batch's statements only, and a bounded number of them.
 */
import type Database from 'better-sqlite3';
import type { SqlExecutor, SqlParams, WriteDurability } from './sql-driver.js';

/** A single statement outside any transaction (`driver.run`). */
export interface PendingWrite {
  kind: 'write';
  statement: Database.Statement;
  params: SqlParams;
  durability: WriteDurability;
  resolve: (changes: unknown) => void;
  reject: (error: unknown) => void;
}

/** A transaction (`driver.transaction`): its work runs in a savepoint of the batch. */
export interface PendingWork {
  kind: 'work';
  work: (tx: SqlExecutor) => Promise<unknown>;
  durability: WriteDurability;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

export type Pending = PendingWrite | PendingWork;

/** What a test may observe of a commit: the single writes' SQL, how many transactions, whether any answer waits for a WAL sync. */
export interface CommitObservation {
  writes: string[];
  transactions: number;
  awaitsSync: boolean;
}

export type CommitObserver = (observation: CommitObservation) => void;

/** What became of one pending write: a statement's changed rows or a work's result, or its error. */
export type Outcome = { value: unknown } | { error: unknown };

export interface Settled {
  item: Pending;
  outcome: Outcome;
}

/** The connection a batch runs on; its `transaction` nests as a savepoint inside an open transaction. */
export interface BatchConnection extends SqlExecutor {
  readonly db: Database.Database;
  statement(sql: string): Database.Statement;
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T>;
}

/**
 * A burst is committed in parts: a batch takes no more writes once it holds this many or has run this long, so
 * the reads queued behind it and its callers' answers wait no longer (the rest go into the next batch, after the
 * queued reads).
 */
export const MAX_BATCH_WRITES = 64;
export const MAX_BATCH_MS = 10;

/** The bounds of one batch; tests that count commits lift `ms`, so a slow moment of a loaded machine cannot split a batch. */
export interface BatchLimits {
  writes: number;
  ms: number;
}

function runWrite(write: PendingWrite): Outcome {
  try {
    return { value: write.statement.run(...write.params).changes };
  } catch (error) {
    return { error };
  }
}

async function runWork(connection: BatchConnection, work: PendingWork): Promise<Outcome> {
  try {
    return { value: await connection.transaction(work.work) };
  } catch (error) {
    return { error };
  }
}

/**
 * Takes writes from the front of `queue` (also those added while it runs) and commits them in one transaction,
 * until the queue is empty or the batch is full (`limits`: MAX_BATCH_WRITES, MAX_BATCH_MS); returns each one's outcome, in
 * order. An error that ends the whole transaction (disk full, I/O, a work that ended it itself) or a failed COMMIT
 * fails every write taken, since none of them was kept.
 */
export async function commitBatch(connection: BatchConnection, queue: Pending[], limits: BatchLimits = { writes: MAX_BATCH_WRITES, ms: MAX_BATCH_MS }): Promise<Settled[]> {
  const { db } = connection;
  if (queue.length === 0) return [];
  // A lone statement commits by itself: no BEGIN and COMMIT to pay for.
  if (queue.length === 1 && queue[0]!.kind === 'write') {
    const only = queue.shift() as PendingWrite;
    return [{ item: only, outcome: runWrite(only) }];
  }
  const started = performance.now();
  try {
    // IMMEDIATE takes the write lock up front, so two writers queue in busy_timeout instead of deadlocking.
    connection.statement('BEGIN IMMEDIATE').run();
  } catch (error) {
    // The lock was not had (another process held it past busy_timeout): each write waiting now would fail alone too.
    return queue.splice(0).map((item) => ({ item, outcome: { error } }));
  }
  const settled: Settled[] = [];
  try {
    while (queue.length > 0 && settled.length < limits.writes && performance.now() - started < limits.ms) {
      const item = queue.shift()!;
      const outcome = item.kind === 'write' ? runWrite(item) : await runWork(connection, item);
      settled.push({ item, outcome });
      if (!db.inTransaction) throw 'error' in outcome ? outcome.error : new Error('a transaction ended the batch it ran in');
    }
    connection.statement('COMMIT').run();
  } catch (error) {
    try {
      if (db.inTransaction) connection.statement('ROLLBACK').run();
    } catch {
      // Every write taken is told `error` below either way; a connection that cannot roll back fails the next BEGIN.
    }
    return settled.map(({ item }) => ({ item, outcome: { error } }));
  }
  return settled;
}
