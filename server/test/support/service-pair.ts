/**
 * Two service processes on one database (a SQLite file in a shared data directory, or a fresh PostgreSQL database
 * when TEST_DATABASE_URL is set), as instances behind a load balancer: `survivor` keeps running (or is started again
 * on its address), the others are started to be killed (PUBLISH_TEST_CRASH_AT). All call the sandbox networks at the survivor's address
 * (PUBLIC_URL), so a network call already sent goes on after its caller died, as on a real network. Rows are read
 * straight from the database (`rows`), on either backend.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { freePort, startChildService, type ChildService } from './child-service.js';
import { freshDatabase, type FreshDatabase } from './fresh-database.js';
import { stopChild } from './stop-child.js';
import { SANDBOX_TWITTER_APP_HEADERS } from './test-service.js';

export interface ServicePair {
  readonly apiKey: string;
  readonly url: string;
  /** The instance at PUBLIC_URL (it also plays the sandbox networks). */
  survivor: ChildService;
  backend: 'sqlite' | 'postgres';
  /** Starts another instance on the same database, on a port of its own, with `env` added. */
  startInstance(env?: Record<string, string>): Promise<ChildService>;
  /** Starts the survivor again on its address, with the shared environment only (after it died). */
  restartSurvivor(): Promise<ChildService>;
  /** An API call to one of the instances, with the sandbox X app headers. */
  api(via: ChildService, method: string, path: string, body?: unknown): Promise<{ status: number; json: Record<string, any> }>;
  /** A read of the shared database; `?` placeholders on both backends. */
  rows<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** A write to the shared database (test set-up of network-side rows). */
  run(sql: string, params?: unknown[]): Promise<void>;
  close(): Promise<void>;
}

/** Resolves when the process has ended. */
export function exited(child: ChildService): Promise<void> {
  const process = child.process;
  return new Promise((resolve) => (process.exitCode !== null || process.signalCode !== null ? resolve() : process.once('exit', () => resolve())));
}

export const isAlive = (child: ChildService) => child.process.exitCode === null && child.process.signalCode === null;

/** The built service when named (run by plain node: a quarter of the start-up time of the TypeScript sources), else the sources. */
export function serviceScript(): string | undefined {
  return process.env.SERVICE_PAIR_SCRIPT || undefined;
}

/** `env` is given to every instance, `survivorEnv` to the first survivor only. */
export async function startServicePair(env: Record<string, string>, survivorEnv: Record<string, string> = {}): Promise<ServicePair> {
  const dataDir = mkdtempSync(join(tmpdir(), 'slk-pair-'));
  const database: FreshDatabase | null = process.env.TEST_DATABASE_URL ? await freshDatabase('slk_pair') : null;
  const apiKey = `sk_pair_${'p'.repeat(40)}`;
  const script = serviceScript();
  let shared: Record<string, string> = {};
  const start = (extra: Record<string, string>) => startChildService({ ...shared, ...extra }, { startTimeoutMs: 90_000, ...(script && { script, plainNode: script.endsWith('.js') }) });
  // The survivor first: it migrates the database and writes the key files the victim then reads. Its address must be
  // known before it starts (it is PUBLIC_URL, where every instance finds the sandbox networks), so a port another
  // process took between the look-up and the listen (suites run side by side) is tried again with another.
  let port = 0;
  let survivor: ChildService | undefined;
  for (let tries = 1; !survivor; tries++) {
    port = await freePort();
    shared = {
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      API_KEY: apiKey,
      SANDBOX_NETWORKS: 'all',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      ...(database && { DATABASE_URL: database.url }),
      ...env,
    };
    try {
      survivor = await start({ PORT: String(port), ...survivorEnv });
    } catch (error) {
      if (tries >= 3 || !String(error).includes('EADDRINUSE')) throw error;
    }
  }
  const url = `http://127.0.0.1:${port}`;
  const instances: ChildService[] = [survivor];
  const sqlite = database ? null : new Database(join(dataDir, 'social-link.db'));
  sqlite?.pragma('busy_timeout = 10000');
  const pool = database ? new pg.Pool({ connectionString: database.url, max: 2 }) : null;
  // An idle client cut when the database is dropped at close must not end the test run as an uncaught error.
  pool?.on('error', () => {});
  const toPg = (sql: string) => {
    let n = 0;
    return sql.replace(/\?/g, () => `$${++n}`);
  };
  const pair: ServicePair = {
    apiKey,
    url,
    survivor,
    backend: database ? 'postgres' : 'sqlite',
    async startInstance(extra = {}) {
      // Any free port, chosen by the system at listen (the child prints its address).
      const child = await start({ PORT: '0', ...extra });
      instances.push(child);
      return child;
    },
    async restartSurvivor() {
      pair.survivor = await start({ PORT: String(port) });
      instances.push(pair.survivor);
      return pair.survivor;
    },
    async api(via, method, path, body) {
      const response = await fetch(`${via.url}/api${path}`, {
        method,
        headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json', ...SANDBOX_TWITTER_APP_HEADERS },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
      return { status: response.status, json: (await response.json().catch(() => ({}))) as Record<string, any> };
    },
    async rows<T>(sql: string, params: unknown[] = []) {
      if (pool) return (await pool.query(toPg(sql), params)).rows as T[];
      return sqlite!.prepare(sql).all(...params) as T[];
    },
    async run(sql, params = []) {
      if (pool) await pool.query(toPg(sql), params);
      else sqlite!.prepare(sql).run(...params);
    },
    async close() {
      await Promise.all(instances.map((child) => stopChild(child.process, 'SIGKILL')));
      sqlite?.close();
      await pool?.end();
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return pair;
}
