/**
 * The one "fresh PostgreSQL database" helper: a new database on the test server (`TEST_DATABASE_URL`, set by
 * scripts/with-postgres.sh), and how to drop it again.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface FreshDatabase {
  url: string;
  /** Runs one statement on the new database (tests that read rows directly). */
  query(sql: string): Promise<Record<string, unknown>[]>;
  drop(): Promise<void>;
}

/** Runs one statement on the test server's maintenance database. */
async function adminQuery(server: string, sql: string): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  try {
    return (await client.query(sql)).rows as Record<string, unknown>[];
  } finally {
    await client.end();
  }
}

/** Creates `<prefix>_<random>` on `server` (default `TEST_DATABASE_URL`). */
export async function freshDatabase(prefix: string, server = process.env.TEST_DATABASE_URL): Promise<FreshDatabase> {
  if (!server) throw new Error('freshDatabase needs TEST_DATABASE_URL (run under scripts/with-postgres.sh)');
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  await adminQuery(server, `CREATE DATABASE ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    query: (sql) => adminQuery(url.href, sql),
    drop: async () => {
      await adminQuery(server, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}
