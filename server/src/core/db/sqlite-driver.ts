/**
 * @module
 * The SQLite driver: one file (better-sqlite3), WAL journal, synchronous=FULL so a committed link survives a crash.
 */
import Database from 'better-sqlite3';
import { AsyncMutex } from './async-mutex.js';
import type { Row } from './rows.js';
import { SQLITE_DIALECT } from './sql-dialect.js';
import type { SqlConnection, SqlDriver, SqlExecutor, SqlParams } from './sql-driver.js';

/**
 * better-sqlite3 is synchronous, but the shared storage code awaits between the statements of a transaction, so
 * other callers' statements could run inside it on the same connection. Every statement and transaction therefore
 * goes through this mutex. It is one for the whole process, not one per connection: while a transaction holds
 * SQLite's write lock, a write from a second connection in the same process would wait in SQLite's busy handler,
 * which blocks the thread, so the first transaction could never finish.
 */
const oneAtATime = new AsyncMutex();
const MAX_CACHED_STATEMENTS = 500;

/** Runs statements at once: only for callers that already hold `oneAtATime`. */
class SqliteConnection implements SqlConnection {
  readonly #db: Database.Database;
  /** Compiled statements by SQL text: the same few statements run on every request, compiling them each time was waste. */
  readonly #statements = new Map<string, Database.Statement>();

  constructor(db: Database.Database) {
    this.#db = db;
  }

  #prepare(sql: string): Database.Statement {
    let statement = this.#statements.get(sql);
    if (!statement) {
      // Bounded: texts built at run time (IN lists of varying length) must not grow it without end.
      if (this.#statements.size >= MAX_CACHED_STATEMENTS) this.#statements.clear();
      statement = this.#db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  async all(sql: string, params: SqlParams = []): Promise<Row[]> {
    return this.#prepare(sql).all(...params) as Row[];
  }

  async get(sql: string, params: SqlParams = []): Promise<Row | null> {
    return (this.#prepare(sql).get(...params) as Row | undefined) ?? null;
  }

  async run(sql: string, params: SqlParams = []): Promise<number> {
    return this.#prepare(sql).run(...params).changes;
  }

  async exec(sql: string): Promise<void> {
    this.#db.exec(sql);
  }

  /** IMMEDIATE takes the write lock up front, so two writers queue in busy_timeout instead of deadlocking. */
  async transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    this.#db.exec('BEGIN IMMEDIATE');
    try {
      const result = await work(this);
      this.#db.exec('COMMIT');
      return result;
    } catch (error) {
      if (this.#db.inTransaction) this.#db.exec('ROLLBACK');
      throw error;
    }
  }
}

export class SqliteDriver implements SqlDriver {
  readonly kind = 'sqlite';
  readonly dialect = SQLITE_DIALECT;
  readonly #db: Database.Database;
  readonly #connection: SqliteConnection;

  constructor(filename: string) {
    this.#db = new Database(filename);
    this.#db.pragma('journal_mode = WAL');
    this.#db.pragma('synchronous = FULL');
    this.#db.pragma('foreign_keys = ON');
    this.#db.pragma('busy_timeout = 5000');
    this.#connection = new SqliteConnection(this.#db);
  }

  all(sql: string, params?: SqlParams): Promise<Row[]> {
    return oneAtATime.runExclusive(() => this.#connection.all(sql, params));
  }

  get(sql: string, params?: SqlParams): Promise<Row | null> {
    return oneAtATime.runExclusive(() => this.#connection.get(sql, params));
  }

  run(sql: string, params?: SqlParams): Promise<number> {
    return oneAtATime.runExclusive(() => this.#connection.run(sql, params));
  }

  exec(sql: string): Promise<void> {
    return oneAtATime.runExclusive(() => this.#connection.exec(sql));
  }

  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    return oneAtATime.runExclusive(() => this.#connection.transaction(work));
  }

  /** Holding the mutex for all migrations keeps two connections of one process from applying the same version. */
  whileMigrating<T>(work: (connection: SqlConnection) => Promise<T>): Promise<T> {
    return oneAtATime.runExclusive(() => work(this.#connection));
  }

  close(): Promise<void> {
    return oneAtATime.runExclusive(async () => {
      this.#db.close();
    });
  }
}
