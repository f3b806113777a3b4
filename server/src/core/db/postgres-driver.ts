/**
 * @module
 * The PostgreSQL driver, for several service instances on one database: a pool of connections, each transaction
 * on one connection of its own, migrations under an advisory lock so instances starting together do not race.
 */
import { createHash } from 'node:crypto';
import pg from 'pg';
import type { Row } from './rows.js';
import { POSTGRES_DIALECT } from './sql-dialect.js';
import type { SqlConnection, SqlDriver, SqlExecutor, SqlParams } from './sql-driver.js';

// BIGINT (epoch ms) and COUNT(*) come back as numbers: every value here is far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

/** Any key: the advisory lock that serialises migrations across instances. */
const MIGRATION_LOCK = 4_711_2026;

/** Each SQL text's numbered form, converted once. */
const numberedSql = new Map<string, string>();

/**
 * The shared SQL's `?` placeholders as PostgreSQL's `$1, $2, …`. That SQL has no `?` inside string literals;
 * PostgreSQL-only SQL written with `$n` already has no `?` and passes through unchanged.
 */
function numberedPlaceholders(sql: string): string {
  let numbered = numberedSql.get(sql);
  if (numbered === undefined) {
    let count = 0;
    numbered = sql.replace(/\?/g, () => `$${++count}`);
    // The stores' SQL texts are few; the bound only guards against SQL built per call.
    if (numberedSql.size >= 500) numberedSql.clear();
    numberedSql.set(sql, numbered);
  }
  return numbered;
}

/** Each SQL text's prepared-statement name: a hash of the text, so one name never stands for two texts. */
const statementNames = new Map<string, string>();

/**
 * A named (prepared) query: each connection parses and plans a SQL text once and then only binds and executes it,
 * which takes work off the database server that every instance shares.
 */
function preparedQuery(sql: string, params: SqlParams): pg.QueryConfig {
  const text = numberedPlaceholders(sql);
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `s${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    if (statementNames.size >= 500) statementNames.clear();
    statementNames.set(text, name);
  }
  return { name, text, values: [...params] };
}

type Queryable = Pick<pg.PoolClient, 'query'>;

class PostgresExecutor implements SqlExecutor {
  readonly #db: Queryable;

  constructor(db: Queryable) {
    this.#db = db;
  }

  async all(sql: string, params: SqlParams = []): Promise<Row[]> {
    return (await this.#db.query(preparedQuery(sql, params))).rows as Row[];
  }

  async get(sql: string, params: SqlParams = []): Promise<Row | null> {
    return (await this.all(sql, params))[0] ?? null;
  }

  async run(sql: string, params: SqlParams = []): Promise<number> {
    return (await this.#db.query(preparedQuery(sql, params))).rowCount ?? 0;
  }

  /** Without parameters pg uses the simple protocol, which takes several statements at once. */
  async exec(sql: string): Promise<void> {
    await this.#db.query(sql);
  }
}

async function transactionOn<T>(client: pg.PoolClient, work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
  try {
    await client.query('BEGIN');
    const result = await work(new PostgresExecutor(client));
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
}

/** One pooled connection held for a while (the migrations, under their lock). */
class PostgresClientConnection extends PostgresExecutor implements SqlConnection {
  readonly #client: pg.PoolClient;

  constructor(client: pg.PoolClient) {
    super(client);
    this.#client = client;
  }

  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    return transactionOn(this.#client, work);
  }
}

export class PostgresDriver extends PostgresExecutor implements SqlDriver {
  readonly kind = 'postgres';
  readonly dialect = POSTGRES_DIALECT;
  readonly #pool: pg.Pool;

  constructor(connectionString: string) {
    const pool = new pg.Pool({ connectionString, max: 10 });
    super(pool);
    this.#pool = pool;
    // An idle connection the server closes (restart, failover, DROP … FORCE) must not crash the process: the pool
    // drops it and opens a new one for the next query.
    this.#pool.on('error', () => {});
    // And at any other moment of a connection's life (being removed after a first error, ending with the pool): an
    // 'error' event without a listener would end the process; the query it concerns fails with it anyway.
    this.#pool.on('connect', (client) => client.on('error', () => {}));
  }

  /** Every commit is as durable as the server's `synchronous_commit` makes it once it is answered. */
  async durable(): Promise<void> {}

  /** Reads stay on the pool, each on its own: nothing to group (sql-driver.ts). */
  groupReads(): void {}

  async transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    return this.#checkedOut((client) => transactionOn(client, work));
  }

  whileMigrating<T>(work: (connection: SqlConnection) => Promise<T>): Promise<T> {
    return this.#checkedOut(async (client) => {
      try {
        await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
        return await work(new PostgresClientConnection(client));
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
      }
    });
  }

  /**
   * Runs `use` on a connection of its own. The server may end it meanwhile (a restart, failover,
   * pg_terminate_backend): the connection then emits 'error', which with no listener would be an uncaught error that
   * ends the process (the pool listens on idle connections only). Here the query in flight, or the next one, fails
   * and the caller's transaction with it (a job retries or reconciles); the dead connection is dropped on release.
   */
  async #checkedOut<T>(use: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.#pool.connect();
    let ended: Error | undefined;
    const onError = (error: Error) => {
      ended = error;
    };
    client.on('error', onError);
    try {
      return await use(client);
    } finally {
      client.off('error', onError);
      client.release(ended);
    }
  }

  /** Other instances commit unseen; nothing cheap tells this one (see accounts/caller-cache.ts). */
  foreignCommitStamp(): null {
    return null;
  }

  async close(): Promise<void> {
    await this.#pool.end();
  }
}
