/**
 * @module
 * The SQLite driver: one file (better-sqlite3), WAL journal, so every answered write survives a crash of the
 * service; what also survives a power loss is `SQLITE_SYNCHRONOUS`'s choice (sqlite-settings.ts: by default every
 * write but a link-session create). Commits write the WAL without a sync; a write that must survive a power loss
 * is answered after a grouped fdatasync of the WAL on the thread pool (wal-sync.ts), so neither the event loop nor
 * a read waits for the disk. Statements are prepared once per SQL text; single-statement writes of one event-loop
 * turn are committed together (write-batch.ts); WAL checkpoints run on a worker thread (wal-checkpointer.ts).
 */
import Database from 'better-sqlite3';
import { AsyncMutex } from './async-mutex.js';
import type { Row } from './rows.js';
import { SQLITE_DIALECT } from './sql-dialect.js';
import type { SqliteSynchronous } from './sqlite-settings.js';
import type { SqlConnection, SqlDriver, SqlExecutor, SqlParams, WriteDurability } from './sql-driver.js';
import { FALLBACK_CHECKPOINT_PAGES, WalCheckpointer } from './wal-checkpointer.js';
import { WalSync, type SyncObserver } from './wal-sync.js';
import { commitWriteBatch, type CommitObserver, type PendingWrite } from './write-batch.js';

/**
 * better-sqlite3 is synchronous, but the shared storage code awaits between the statements of a transaction, so
 * other callers' statements could run inside it on the same connection. Transactions and write batches therefore
 * go through this mutex, and a single read runs at once only while the mutex is idle. It is one for the whole
 * process, not one per connection: while a transaction holds SQLite's write lock, a write from a second connection
 * in the same process would wait in SQLite's busy handler, which blocks the thread, so the first transaction could
 * never finish. No fsync runs under it (wal-sync.ts), so what queues here waits for statements only.
 */
const oneAtATime = new AsyncMutex();

/** Distinct SQL texts are few (the stores' constants); the bound only guards against a caller building SQL per call. */
const MAX_CACHED_STATEMENTS = 500;

/** Runs statements at once: only for callers that already hold `oneAtATime`. */
class SqliteConnection implements SqlConnection {
  readonly db: Database.Database;
  readonly #statements = new Map<string, Database.Statement>();

  constructor(db: Database.Database) {
    this.db = db;
  }

  /** Preparing costs as much as running a simple statement, so each SQL text is prepared once. */
  statement(sql: string): Database.Statement {
    let statement = this.#statements.get(sql);
    if (!statement) {
      if (this.#statements.size >= MAX_CACHED_STATEMENTS) this.#statements.clear();
      statement = this.db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  allNow(sql: string, params: SqlParams = []): Row[] {
    return this.statement(sql).all(...params) as Row[];
  }

  getNow(sql: string, params: SqlParams = []): Row | null {
    return (this.statement(sql).get(...params) as Row | undefined) ?? null;
  }

  async all(sql: string, params?: SqlParams): Promise<Row[]> {
    return this.allNow(sql, params);
  }

  async get(sql: string, params?: SqlParams): Promise<Row | null> {
    return this.getNow(sql, params);
  }

  async run(sql: string, params: SqlParams = []): Promise<number> {
    return this.statement(sql).run(...params).changes;
  }

  async exec(sql: string): Promise<void> {
    this.db.exec(sql);
  }

  /** IMMEDIATE takes the write lock up front, so two writers queue in busy_timeout instead of deadlocking. */
  async transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const result = await work(this);
      this.db.exec('COMMIT');
      return result;
    } catch (error) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw error;
    }
  }
}

/** A synchronous read as the promise the interface returns, without a trip through the mutex. */
function settledNow<T>(read: () => T): Promise<T> {
  try {
    return Promise.resolve(read());
  } catch (error) {
    return Promise.reject(error);
  }
}

export class SqliteDriver implements SqlDriver {
  readonly kind = 'sqlite';
  readonly dialect = SQLITE_DIALECT;
  readonly #connection: SqliteConnection;
  readonly #synchronous: SqliteSynchronous;
  #pendingWrites: PendingWrite[] = [];
  /** Null for an in-memory database (no WAL). */
  readonly checkpointer: WalCheckpointer | null;
  /** The grouped fdatasync of the WAL; null without a WAL (in memory), where there is nothing to sync. */
  readonly #walSync: WalSync | null;
  /** Set by tests only (observeCommits). */
  #commitObserver: CommitObserver | null = null;
  /** Commits answered so far (transactions and write batches), and how many of them a finished sync covers. */
  #commits = 0;
  #syncedCommits = 0;

  constructor(filename: string, synchronous: SqliteSynchronous = 'mixed') {
    const db = new Database(filename);
    const wal = db.pragma('journal_mode = WAL', { simple: true }) === 'wal';
    // NORMAL: COMMIT does not sync the WAL (the callers that need it await #walSync). SQLite still syncs at
    // checkpoints, so the WAL is never reused before the database file holds its frames (wal-sync.ts).
    db.pragma(`synchronous = ${wal ? 'NORMAL' : 'FULL'}`);
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    this.#synchronous = synchronous;
    this.#connection = new SqliteConnection(db);
    this.#walSync = wal ? new WalSync(`${db.name}-wal`) : null;
    this.checkpointer = wal ? new WalCheckpointer(db.name, 'NORMAL') : null;
    // This connection checkpoints only when the worker's checkpoints let the WAL grow this far (wal-checkpointer.ts).
    if (this.checkpointer) db.pragma(`wal_autocheckpoint = ${FALLBACK_CHECKPOINT_PAGES}`);
  }

  all(sql: string, params?: SqlParams): Promise<Row[]> {
    if (oneAtATime.idle) return settledNow(() => this.#connection.allNow(sql, params));
    return oneAtATime.runExclusive(() => this.#connection.all(sql, params));
  }

  get(sql: string, params?: SqlParams): Promise<Row | null> {
    if (oneAtATime.idle) return settledNow(() => this.#connection.getNow(sql, params));
    return oneAtATime.runExclusive(() => this.#connection.get(sql, params));
  }

  /** Joins the current turn's write batch; resolves once the batch is committed and, if `durability` asks, synced. */
  run(sql: string, params: SqlParams = [], durability: WriteDurability = 'power-loss'): Promise<number> {
    let statement: Database.Statement;
    try {
      statement = this.#connection.statement(sql);
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise((resolve, reject) => {
      this.#pendingWrites.push({ statement, params, durability, resolve, reject });
      // setImmediate runs after the I/O callbacks of this turn: every request that arrived with this one has
      // reached its write by then.
      if (this.#pendingWrites.length === 1) setImmediate(() => void this.#commitPendingWrites());
    });
  }

  /** Whether a commit of this durability is answered only after a sync of the WAL (SQLITE_SYNCHRONOUS). */
  #needsSync(durability: WriteDurability): boolean {
    if (!this.#walSync || this.#synchronous === 'normal') return false;
    return this.#synchronous === 'full' || durability === 'power-loss';
  }

  async #commitPendingWrites(): Promise<void> {
    const writes = this.#pendingWrites;
    this.#pendingWrites = [];
    if (writes.length === 0) return;
    const outcomes = await oneAtATime.runExclusive(async () => commitWriteBatch(this.#connection.db, writes));
    this.#commits += 1;
    const waits = writes.map((write, index) => !('error' in outcomes[index]!) && this.#needsSync(write.durability));
    this.#commitObserver?.({ writes: writes.map((write) => write.statement.source), awaitsSync: waits.includes(true) });
    const synced = waits.includes(true) ? this.#sync() : null;
    writes.forEach((write, index) => {
      const outcome = outcomes[index]!;
      if (waits[index]) synced!.then(() => write.resolve((outcome as { changes: number }).changes), write.reject);
      else if (!('error' in outcome)) write.resolve(outcome.changes);
      // A failed write is told with the batch's synced ones, as before the sync moved off the loop: a caller
      // holding several of its writes' promises handles each before the next turn.
      else if (synced) synced.then(() => write.reject(outcome.error), () => write.reject(outcome.error));
      else write.reject(outcome.error);
    });
  }

  /** After a commit made outside a write batch: answered once synced where the setting asks for it. */
  async #committed(what: 'transaction', durability: WriteDurability = 'power-loss'): Promise<void> {
    this.#commits += 1;
    const awaitsSync = this.#needsSync(durability);
    this.#commitObserver?.({ writes: what, awaitsSync });
    if (awaitsSync) await this.#sync();
  }

  /** A sync of the WAL: it covers every commit made before it was asked for (wal-sync.ts). */
  async #sync(): Promise<void> {
    const covered = this.#commits;
    await this.#walSync!.sync();
    this.#syncedCommits = Math.max(this.#syncedCommits, covered);
  }

  async durable(): Promise<void> {
    if (this.#syncedCommits >= this.#commits || !this.#needsSync('power-loss')) return;
    await this.#sync();
  }

  /** Tests: calls `observer` at each commit (what it held, whether its answer waits for a sync); null stops. */
  observeCommits(observer: CommitObserver | null): void {
    this.#commitObserver = observer;
  }

  /** Tests: calls `observer` as each fdatasync of the WAL starts and ends; null stops. */
  observeSyncs(observer: SyncObserver | null): void {
    if (this.#walSync) this.#walSync.observer = observer;
  }

  /** fdatasyncs of the WAL run so far (0 without a WAL). */
  get walSyncs(): number {
    return this.#walSync?.syncs ?? 0;
  }

  async exec(sql: string): Promise<void> {
    await oneAtATime.runExclusive(() => this.#connection.exec(sql));
    await this.#committed('transaction');
  }

  /** `process-crash`: answered once committed, without waiting for a sync (the caller awaits `durable()` later). */
  async transaction<T>(work: (tx: SqlExecutor) => Promise<T>, durability: WriteDurability = 'power-loss'): Promise<T> {
    const result = await oneAtATime.runExclusive(() => this.#connection.transaction(work));
    await this.#committed('transaction', durability);
    return result;
  }

  /** SQLite's `data_version`: it changes only when another connection (this process or another) committed. */
  foreignCommitStamp(): number {
    return this.#connection.statement('PRAGMA data_version').pluck().get() as number;
  }

  /** Holding the mutex for all migrations keeps two connections of one process from applying the same version. */
  async whileMigrating<T>(work: (connection: SqlConnection) => Promise<T>): Promise<T> {
    const result = await oneAtATime.runExclusive(() => work(this.#connection));
    await this.#committed('transaction');
    return result;
  }

  async close(): Promise<void> {
    await this.#commitPendingWrites();
    await this.#walSync?.close();
    // The worker's connection first, so this one is the last and SQLite removes the WAL as it closes.
    await this.checkpointer?.close();
    await oneAtATime.runExclusive(async () => {
      this.#connection.db.close();
    });
  }
}
