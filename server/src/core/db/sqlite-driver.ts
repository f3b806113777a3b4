/**
 * @module
 * The SQLite driver: one file (better-sqlite3), WAL journal, so every answered write survives a crash of the
 * service; what also survives a power loss is `SQLITE_SYNCHRONOUS`'s choice (sqlite-settings.ts: by default every
 * write but a link-session create). Commits write the WAL without a sync; a write that must survive a power loss
 * is answered after a grouped fdatasync of the WAL on the thread pool (wal-sync.ts), so neither the event loop nor
 * a read waits for the disk. Statements are prepared once per SQL text; the writes of one event-loop turn, single
 * statements and transactions, are committed together (write-batch.ts); WAL checkpoints run on a worker thread
 * (wal-checkpointer.ts).
 */
import Database from 'better-sqlite3';
import { AsyncMutex } from './async-mutex.js';
import type { Row } from './rows.js';
import { SQLITE_DIALECT } from './sql-dialect.js';
import type { SqliteSynchronous } from './sqlite-settings.js';
import type { SqlConnection, SqlDriver, SqlExecutor, SqlParams, WriteDurability } from './sql-driver.js';
import { FALLBACK_CHECKPOINT_PAGES, WalCheckpointer } from './wal-checkpointer.js';
import { WalSync, type SyncObserver } from './wal-sync.js';
import { commitBatch, MAX_BATCH_MS, MAX_BATCH_WRITES, type BatchLimits, type CommitObserver, type Pending } from './write-batch.js';

/**
 * better-sqlite3 is synchronous, but the shared storage code awaits between the statements of a transaction, so
 * other callers' statements could run inside it on the same connection. Batches of writes and transactions
 * (write-batch.ts), exec and migrations therefore go through this mutex, held from BEGIN to COMMIT, and a single
 * read runs at once only while the mutex is idle: a read never sees a batch's uncommitted rows. It is one for the
 * whole process, not one per connection: while a transaction holds SQLite's write lock, a write from a second
 * connection in the same process would wait in SQLite's busy handler, which blocks the thread, so the first
 * transaction could never finish. No fsync runs under it (wal-sync.ts), so what queues here waits for statements only.
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

  /**
   * One transaction, or inside an open one (a work of the driver's batch, a transaction within a work) a savepoint:
   * all or nothing as part of the enclosing one. IMMEDIATE takes the write lock up front, so two writers queue in
   * busy_timeout instead of deadlocking.
   */
  async transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    const nested = this.db.inTransaction;
    this.statement(nested ? 'SAVEPOINT work' : 'BEGIN IMMEDIATE').run();
    try {
      const result = await work(this);
      this.statement(nested ? 'RELEASE work' : 'COMMIT').run();
      return result;
    } catch (error) {
      if (this.db.inTransaction) {
        // ROLLBACK TO keeps the savepoint open: RELEASE then ends it, its changes undone.
        if (nested) {
          this.statement('ROLLBACK TO work').run();
          this.statement('RELEASE work').run();
        } else this.statement('ROLLBACK').run();
      }
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
  /** Writes and transactions waiting for the next batch; the batch takes them from the front (write-batch.ts). */
  readonly #pending: Pending[] = [];
  /** Null for an in-memory database (no WAL). */
  readonly checkpointer: WalCheckpointer | null;
  /** The grouped fdatasync of the WAL; null without a WAL (in memory), where there is nothing to sync. */
  readonly #walSync: WalSync | null;
  /** Set by tests only (observeCommits). */
  #commitObserver: CommitObserver | null = null;
  /** Commits answered so far (transactions and write batches), and how many of them a finished sync covers. */
  #commits = 0;
  #syncedCommits = 0;

  constructor(filename: string, synchronous: SqliteSynchronous = 'mixed', mmapMb = 0) {
    const db = new Database(filename);
    const wal = db.pragma('journal_mode = WAL', { simple: true }) === 'wal';
    // NORMAL: COMMIT does not sync the WAL (the callers that need it await #walSync). SQLite still syncs at
    // checkpoints, so the WAL is never reused before the database file holds its frames (wal-sync.ts).
    db.pragma(`synchronous = ${wal ? 'NORMAL' : 'FULL'}`);
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    // Each work of a batch runs in a savepoint (write-batch.ts), whose journal of changed pages would spill from
    // 64 KB on into a temporary file (a write per page, ~30 % more CPU per accept): kept in memory instead. This
    // also keeps SQLite's other temporary files in memory (large sorts without an index, temporary tables).
    db.pragma('temp_store = MEMORY');
    // SQLITE_MMAP_MB: pages read through a memory map need no read call and no copy into SQLite's 2 MB page cache,
    // which a large file read at random keeps missing (one profile's duplicate lookup at 1M posts; issue 31).
    if (mmapMb > 0) db.pragma(`mmap_size = ${mmapMb * 1024 * 1024}`);
    this.#synchronous = synchronous;
    this.#connection = new SqliteConnection(db);
    this.#walSync = wal ? new WalSync(`${db.name}-wal`) : null;
    this.checkpointer = wal ? new WalCheckpointer(db.name, 'NORMAL') : null;
    // This connection checkpoints only when the worker's checkpoints let the WAL grow this far (wal-checkpointer.ts).
    if (this.checkpointer) db.pragma(`wal_autocheckpoint = ${FALLBACK_CHECKPOINT_PAGES}`);
  }

  all(sql: string, params?: SqlParams): Promise<Row[]> {
    if (oneAtATime.idle) return this.#now(sql, () => this.#connection.allNow(sql, params));
    return this.#exclusive(() => this.#connection.all(sql, params));
  }

  get(sql: string, params?: SqlParams): Promise<Row | null> {
    if (oneAtATime.idle) return this.#now(sql, () => this.#connection.getNow(sql, params));
    return this.#exclusive(() => this.#connection.get(sql, params));
  }

  /** Runs `sql` at once (the mutex idle), in this turn's read group when it has one (#joinReadGroup). */
  #now<T>(sql: string, run: () => T): Promise<T> {
    return settledNow(() => {
      this.#joinReadGroup(sql);
      return run();
    });
  }

  /** Whether this event-loop turn's reads share one read transaction (groupReads), and whether it is open. */
  #groupTurn = false;
  #readOpen = false;

  /**
   * Before a statement run at once (the mutex idle): in a turn whose reads are grouped (groupReads) the first read
   * opens a read transaction the later ones share; a statement that writes (`INSERT … RETURNING` runs through get)
   * ends it first and commits on its own, as without grouping. Nothing to do in a turn without grouping.
   */
  #joinReadGroup(sql: string): void {
    if (!this.#groupTurn && !this.#readOpen) return;
    if (!this.#connection.statement(sql).readonly) this.#endRead();
    else if (!this.#readOpen) {
      this.#connection.statement('BEGIN').run();
      this.#readOpen = true;
    }
  }

  /**
   * Each statement outside a transaction takes and drops SQLite's shared WAL lock (two `fcntl` calls; issue 31
   * counted 64 per immediate post): the reads of the rest of this event-loop turn share one read transaction
   * instead. It ends before anything takes the mutex (a batch of writes, exec, migrations) and at the turn's end
   * (setImmediate: the loop does not wait for I/O while an immediate is queued). A read in it sees what it would
   * have seen at the turn's first grouped read: nothing of this process commits in between (writes wait for the
   * batch after the turn); only another process's commit of that instant shows a turn later.
   */
  groupReads(): void {
    if (this.#groupTurn) return;
    this.#groupTurn = true;
    setImmediate(() => {
      this.#groupTurn = false;
      this.#endRead();
    });
  }

  #endRead(): void {
    if (!this.#readOpen) return;
    this.#readOpen = false;
    this.#connection.statement('COMMIT').run();
  }

  /** Runs `work` holding the mutex, the turn's read transaction ended first (work may BEGIN its own). */
  #exclusive<T>(work: () => Promise<T>): Promise<T> {
    return oneAtATime.runExclusive(() => {
      this.#endRead();
      return work();
    });
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
      this.#enqueue({ kind: 'write', statement, params, durability, resolve: resolve as (changes: unknown) => void, reject });
    });
  }

  #enqueue(item: Pending): void {
    this.#pending.push(item);
    // setImmediate runs after the I/O callbacks of this turn: every request that arrived with this one has
    // reached its write by then.
    if (this.#pending.length === 1) setImmediate(() => void this.#commitPending());
  }

  /** Whether a commit of this durability is answered only after a sync of the WAL (SQLITE_SYNCHRONOUS). */
  #needsSync(durability: WriteDurability): boolean {
    if (!this.#walSync || this.#synchronous === 'normal') return false;
    return this.#synchronous === 'full' || durability === 'power-loss';
  }

  /** How many writes and how long one batch may take (write-batch.ts); tests counting commits lift the time. */
  batchLimits: BatchLimits = { writes: MAX_BATCH_WRITES, ms: MAX_BATCH_MS };

  /** Commits the pending writes in one batch (a full batch leaves the rest to the next) and answers each caller. */
  async #commitPending(): Promise<void> {
    if (this.#pending.length === 0) return;
    const settled = await this.#exclusive(() => commitBatch(this.#connection, this.#pending, this.batchLimits));
    // A full batch left writes behind: the next batch comes after the reads that queued behind this one.
    if (this.#pending.length > 0) setImmediate(() => void this.#commitPending());
    if (settled.length === 0) return;
    const waits = settled.map(({ item, outcome }) => !('error' in outcome) && this.#needsSync(item.durability));
    if (settled.some(({ outcome }) => !('error' in outcome))) this.#commits += 1;
    this.#commitObserver?.({
      writes: settled.flatMap(({ item }) => (item.kind === 'write' ? [item.statement.source] : [])),
      transactions: settled.filter(({ item }) => item.kind === 'work').length,
      awaitsSync: waits.includes(true),
    });
    const synced = waits.includes(true) ? this.#sync() : null;
    settled.forEach(({ item, outcome }, index) => {
      if (waits[index]) synced!.then(() => item.resolve((outcome as { value: unknown }).value), item.reject);
      else if (!('error' in outcome)) item.resolve(outcome.value);
      // A failed write is told with the batch's synced ones, as before the sync moved off the loop: a caller
      // holding several of its writes' promises handles each before the next turn.
      else if (synced) synced.then(() => item.reject(outcome.error), () => item.reject(outcome.error));
      else item.reject(outcome.error);
    });
  }

  /** After a commit made outside a batch (exec, migrations): answered once synced where the setting asks for it. */
  async #committed(): Promise<void> {
    this.#commits += 1;
    const awaitsSync = this.#needsSync('power-loss');
    this.#commitObserver?.({ writes: [], transactions: 1, awaitsSync });
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
    await this.#exclusive(() => this.#connection.exec(sql));
    await this.#committed();
  }

  /**
   * Joins the current turn's batch (write-batch.ts): `work` runs in a savepoint of the batch's transaction, and
   * the result is answered once the batch is committed and, unless `durability` is `process-crash` (the caller
   * then awaits `durable()` later), synced.
   */
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>, durability: WriteDurability = 'power-loss'): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#enqueue({ kind: 'work', work, durability, resolve: resolve as (value: unknown) => void, reject });
    });
  }

  /** SQLite's `data_version`: it changes only when another connection (this process or another) committed. */
  foreignCommitStamp(): number {
    return this.#connection.statement('PRAGMA data_version').pluck().get() as number;
  }

  /** Holding the mutex for all migrations keeps two connections of one process from applying the same version. */
  async whileMigrating<T>(work: (connection: SqlConnection) => Promise<T>): Promise<T> {
    const result = await this.#exclusive(() => work(this.#connection));
    await this.#committed();
    return result;
  }

  async close(): Promise<void> {
    while (this.#pending.length > 0) await this.#commitPending();
    await this.#walSync?.close();
    // The worker's connection first, so this one is the last and SQLite removes the WAL as it closes.
    await this.checkpointer?.close();
    await this.#exclusive(async () => {
      this.#connection.db.close();
    });
  }
}
