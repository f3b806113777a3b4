/**
 * @module
 * Everything the shared SQL (the feature stores, schema.ts) writes differently per database, in one place.
 * Placeholders are not here: the shared SQL uses `?` and each driver binds it its own way.
 */
export interface SqlDialect {
  /** Column type of epoch-ms times: SQLite's INTEGER is 64-bit; PostgreSQL's is 32-bit, so BIGINT there. */
  readonly timeType: 'INTEGER' | 'BIGINT';
  /** Ends a SELECT inside a transaction that must hold its rows until commit. */
  readonly forUpdate: string;
  /** Ends a SELECT that claims the rows of `alias` for this transaction, skipping rows another one holds. */
  forUpdateSkipLocked(alias: string): string;
  /** The text value at top-level `key` of a JSON text column (NULL when absent). */
  jsonText(column: string, key: string): string;
  /** The outbox column that orders rows by insertion. */
  readonly outboxInsertOrder: 'rowid' | 'seq';
  /** Text put right after `CREATE TABLE webhook_outbox (` to define that column, when it is not built in. */
  readonly outboxInsertOrderDefinition: string;
  /**
   * The database server's own clock in epoch ms, as SQL, for times several instances must agree on (job leases);
   * null where the database is a file on this machine (SQLite), whose clock is the caller's.
   */
  readonly databaseClockMs: string | null;
  /** Put after a CREATE TABLE's closing parenthesis: SQLite keeps the rows in their primary key's B-tree, no second one. */
  readonly withoutRowid: string;
}

export const SQLITE_DIALECT: SqlDialect = {
  timeType: 'INTEGER',
  // A SQLite write transaction (BEGIN IMMEDIATE) already holds the whole database: no row locks.
  forUpdate: '',
  forUpdateSkipLocked: () => '',
  jsonText: (column, key) => `json_extract(${column}, '$.${key}')`,
  outboxInsertOrder: 'rowid',
  outboxInsertOrderDefinition: '',
  databaseClockMs: null,
  withoutRowid: ' WITHOUT ROWID',
};

export const POSTGRES_DIALECT: SqlDialect = {
  timeType: 'BIGINT',
  forUpdate: ' FOR UPDATE',
  forUpdateSkipLocked: (alias) => ` FOR UPDATE OF ${alias} SKIP LOCKED`,
  jsonText: (column, key) => `(${column}::jsonb ->> '${key}')`,
  outboxInsertOrder: 'seq',
  outboxInsertOrderDefinition: '\n    seq BIGSERIAL UNIQUE,',
  // clock_timestamp(), not now(): the time the statement reads it, not when its transaction began.
  databaseClockMs: 'CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)',
  withoutRowid: '',
};
