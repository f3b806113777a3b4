/**
 * Test harness: the real service on a loopback port with a real SQLite file in a temp directory,
 * a clock the test can move, and the real client talking HTTP to it.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import pg from 'pg';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLinkClient } from '../../../src/client/index.js';
import { createAccount, type NewAccountOptions } from '../../src/accounts/service.js';
import { readConfig, type ServiceConfig } from '../../src/config.js';
import type { Mailer } from '../../src/linking/email/link-email.js';
import { startService } from '../../src/server.js';
import { openStorage } from '../../src/storage/open-storage.js';
import { freshDatabase } from './fresh-database.js';
import { SANDBOX_TWITTER_APP } from '@social-link-kit/sandbox/networks/twitter-api.js';

/** The sandbox X developer app, sent on every test request (spec 5.6: twitter-bound requests need both headers). */
export const SANDBOX_TWITTER_APP_HEADERS: Record<string, string> = {
  'X-Twitter-OAuth1-Api-Key': SANDBOX_TWITTER_APP.apiKey,
  'X-Twitter-OAuth1-Api-Secret': SANDBOX_TWITTER_APP.apiSecret,
};

export interface TestClock {
  (): number;
  advance(ms: number): void;
}

export function testClock(start = Date.parse('2026-11-22T12:00:00Z')): TestClock {
  let now = start;
  const clock = (() => now) as TestClock;
  clock.advance = (ms) => {
    now += ms;
  };
  return clock;
}

export interface TestServiceOptions {
  account?: NewAccountOptions;
  mailer?: Mailer | null;
  env?: NodeJS.ProcessEnv;
}

/**
 * With `TEST_DATABASE_URL` (a PostgreSQL server, see scripts/with-postgres.sh) every test service gets a fresh
 * database on it, dropped again by close(); without it, a fresh SQLite file.
 */
async function testDatabase(): Promise<{ url: string | null; drop(): Promise<void> }> {
  if (!process.env.TEST_DATABASE_URL) return { url: null, drop: async () => {} };
  return freshDatabase('slk_t');
}

export async function startTestService(options: TestServiceOptions = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'slk-test-'));
  const database = await testDatabase();
  // Only what the test sets: no network credentials from the developer's shell.
  const config: ServiceConfig = {
    ...readConfig({ DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1', ...(database.url && { DATABASE_URL: database.url }), ...options.env }),
  };
  const clock = testClock();
  const storage = await openStorage(config);
  const { account, primaryProfile, apiKey } = await createAccount(storage, clock, options.account);
  const logLines: string[] = [];
  const service = await startService({
    config,
    storage,
    clock,
    mailer: options.mailer ?? null,
    log: (line) => logLines.push(line),
  });
  const client = createLinkClient({ baseUrl: `${service.url}/api`, apiKey });

  /** Raw HTTP, for inputs the typed client would never send. */
  async function api(method: string, path: string, init: { body?: unknown; headers?: Record<string, string>; rawBody?: string } = {}) {
    // The sandbox X developer app's credentials, as every twitter-bound request must carry (spec 5.6); a test
    // overrides them with '' to send none.
    const headers: Record<string, string> = { Authorization: `Bearer ${apiKey}`, ...SANDBOX_TWITTER_APP_HEADERS, ...init.headers };
    for (const name of Object.keys(SANDBOX_TWITTER_APP_HEADERS)) if (headers[name] === '') delete headers[name];
    const body = init.rawBody ?? (init.body === undefined ? undefined : JSON.stringify(init.body));
    if (body !== undefined && !headers['Content-Type']) headers['Content-Type'] = 'application/json';
    const response = await fetch(`${service.url}/api${path}`, { method, headers, body });
    return { status: response.status, headers: response.headers, json: (await response.json()) as Record<string, any> };
  }

  /** Raw SQL on the service's own database, `?` placeholders, for tests that look behind the API. */
  async function sql(query: string, params: unknown[] = []): Promise<{ rows: Record<string, any>[]; changes: number }> {
    if (database.url) {
      let n = 0;
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        const result = await client.query(query.replace(/\?/g, () => `$${++n}`), params);
        return { rows: result.rows, changes: result.rowCount ?? 0 };
      } finally {
        await client.end();
      }
    }
    const db = new Database(config.databaseFile);
    try {
      const statement = db.prepare(query);
      if (statement.reader) return { rows: statement.all(...params) as Record<string, any>[], changes: 0 };
      return { rows: [], changes: statement.run(...params).changes };
    } finally {
      db.close();
    }
  }

  /** Everything the database holds, as text: the SQLite files' bytes, or every PostgreSQL row as JSON. */
  async function databaseDump(): Promise<string> {
    if (database.url) {
      const tables = (await sql("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")).rows.map((r) => r.tablename as string);
      const dumps = await Promise.all(tables.map(async (table) => JSON.stringify((await sql(`SELECT * FROM ${table}`)).rows)));
      return dumps.join('\n');
    }
    return ['', '-wal']
      .map((suffix) => {
        try {
          return readFileSync(`${config.databaseFile}${suffix}`).toString('latin1');
        } catch {
          return '';
        }
      })
      .join('');
  }

  return {
    url: service.url,
    dir,
    sql,
    databaseDump,
    config,
    clock,
    storage,
    /** Every route the app mounted (OpenAPI coverage). */
    routes: service.routes,
    /** The admission gate of `POST /api/post` (core/http/admission.ts), for tests that watch its decisions. */
    admission: service.admission,
    /** The service's token cipher, for workers a test starts on the service's storage. */
    tokenCipher: service.tokenCipher,
    account,
    primaryProfile,
    apiKey,
    client,
    api,
    logLines,
    async close() {
      await service.close();
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export type TestService = Awaited<ReturnType<typeof startTestService>>;

/** The `session` token inside a link URL. */
export function tokenOf(linkUrl: string): string {
  const token = new URL(linkUrl).searchParams.get('session');
  if (!token) throw new Error(`no session token in ${linkUrl}`);
  return token;
}
