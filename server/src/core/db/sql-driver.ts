/**
 * @module
 * What the feature stores (accounts/store.ts, linking/store.ts, …) need from a database: run SQL written once with `?`
 * placeholders, run a transaction, and hold a migration lock. sqlite-driver.ts and postgres-driver.ts implement it.
 */
import type { Row } from './rows.js';
import type { SqlDialect } from './sql-dialect.js';

export type SqlParams = readonly unknown[];

/**
 * What a single write (or a transaction) must survive before it is answered: `power-loss` (the default: on SQLite fsynced before the
 * answer) or `process-crash` (a kill -9 of the service, not necessarily a power loss: link-session creates, which
 * an integrator can make again). Only SQLite under `SQLITE_SYNCHRONOUS=mixed` commits them differently
 * (sqlite-settings.ts); PostgreSQL commits every write as its `synchronous_commit` says.
 */
export type WriteDurability = 'power-loss' | 'process-crash';

/** Runs single statements. */
export interface SqlExecutor {
  all(sql: string, params?: SqlParams): Promise<Row[]>;
  /** The first row, or null when there is none. */
  get(sql: string, params?: SqlParams): Promise<Row | null>;
  /** Returns how many rows the statement changed. `durability` applies to single writes, not inside a transaction. */
  run(sql: string, params?: SqlParams, durability?: WriteDurability): Promise<number>;
  /** A script of one or more statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export interface SqlConnection extends SqlExecutor {
  /**
   * Runs `work` in one write transaction: commits when it resolves, rolls back when it throws. Inside, use only
   * `tx`: on SQLite the connection itself waits until the transaction ends. On SQLite the transactions of one
   * event-loop turn share one commit, each in a savepoint (write-batch.ts): all or nothing each, answered after it.
   */
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>, durability?: WriteDurability): Promise<T>;
}

export interface SqlDriver extends SqlConnection {
  readonly kind: 'sqlite' | 'postgres';
  readonly dialect: SqlDialect;
  /** Runs `work` (the migrations) on a connection no other migrating instance can use at the same time. */
  whileMigrating<T>(work: (connection: SqlConnection) => Promise<T>): Promise<T>;
  /**
   * A number that changes whenever another connection or process commits to the database (not this one), read
   * at once; null where the database cannot tell cheaply (PostgreSQL), which turns off caches that rely on it.
   */
  foreignCommitStamp(): number | null;
  /**
   * Resolves once every commit answered so far (a `process-crash` one included) survives a power loss: for a
   * caller that committed without waiting and must not answer before its commit is durable (an immediate post's
   * accept, which the attempt's own synced commit usually covers; issue 31). At once on PostgreSQL.
   */
  durable(): Promise<void>;
  /**
   * From now to the end of this event-loop turn, reads outside a transaction share one read transaction on SQLite
   * (fewer lock system calls for a caller that reads several rows at once; sqlite-driver.ts). Nothing on PostgreSQL,
   * whose statements run on a pool.
   */
  groupReads(): void;
  close(): Promise<void>;
}
