/**
 * The limiter store: in memory on SQLite, in the database on PostgreSQL so that every instance on one database
 * counts into the same window (checklist G.35). The PostgreSQL parts run with scripts/with-postgres.sh.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { createLinkClient } from '../../../src/client/index.js';
import { ErrorCode } from '@social-link-kit/protocol';
import { createAccount } from '../../src/accounts/service.js';
import { readConfig } from '../../src/config.js';
import { createRateLimiter } from '../../src/core/limits/create-rate-limiter.js';
import { createMemoryRateLimiter } from '../../src/core/limits/rate-limiter.js';
import { startService, type RunningService } from '../../src/server.js';
import { PostgresStorage } from '../../src/storage/postgres.js';
import { SqliteStorage } from '../../src/storage/sqlite.js';
import { freshDatabase } from '../support/fresh-database.js';
import { testClock } from '../support/test-service.js';

const server = process.env.TEST_DATABASE_URL;
const MINUTE = 60_000;


describe('in-memory limiter (SQLite)', () => {
  it('opens a window at the first hit, refuses past the limit, and says when the window ends', async () => {
    const limiter = createMemoryRateLimiter();
    const t0 = 1_000_000;
    assert.deepEqual(await limiter.hit('k', 2, MINUTE, t0), { allowed: true, retryAfterMs: MINUTE });
    assert.equal((await limiter.hit('k', 2, MINUTE, t0 + 1000)).allowed, true);
    assert.deepEqual(await limiter.hit('k', 2, MINUTE, t0 + 2000), { allowed: false, retryAfterMs: MINUTE - 2000 });
    assert.equal((await limiter.hit('other', 2, MINUTE, t0 + 2000)).allowed, true, 'keys count apart');
    assert.equal((await limiter.hit('k', 2, MINUTE, t0 + MINUTE)).allowed, true, 'a new window after windowMs');
  });

  it('is what a SQLite-backed service gets', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'slk-limiter-'));
    const storage = new SqliteStorage(join(dir, 'db.sqlite'));
    try {
      await storage.migrate();
      const one = createRateLimiter(storage);
      const two = createRateLimiter(storage);
      assert.equal((await one.hit('k', 1, MINUTE, 0)).allowed, true);
      assert.equal((await one.hit('k', 1, MINUTE, 0)).allowed, false);
      // One process owns a SQLite file, so each limiter counts on its own.
      assert.equal((await two.hit('k', 1, MINUTE, 0)).allowed, true);
    } finally {
      await storage.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('shared limiter on PostgreSQL', { skip: server ? false : 'needs TEST_DATABASE_URL (scripts/with-postgres.sh)' }, () => {
  let database: { url: string; drop(): Promise<void> };
  let storages: PostgresStorage[] = [];
  before(async () => {
    database = await freshDatabase('slk_limits');
    storages = [new PostgresStorage(database.url), new PostgresStorage(database.url)];
    await Promise.all(storages.map((storage) => storage.migrate()));
  });
  after(async () => {
    for (const storage of storages) await storage.close();
    await database?.drop();
  });

  it('two instances count into one window', async () => {
    const [one, two] = storages.map((storage) => createRateLimiter(storage)) as [ReturnType<typeof createRateLimiter>, ReturnType<typeof createRateLimiter>];
    const t0 = 5_000_000;
    assert.deepEqual(await one.hit('ip:1', 3, MINUTE, t0), { allowed: true, retryAfterMs: MINUTE });
    assert.equal((await two.hit('ip:1', 3, MINUTE, t0 + 10)).allowed, true);
    assert.equal((await one.hit('ip:1', 3, MINUTE, t0 + 20)).allowed, true);
    assert.deepEqual(await two.hit('ip:1', 3, MINUTE, t0 + 1000), { allowed: false, retryAfterMs: MINUTE - 1000 });
    assert.equal((await one.hit('ip:2', 3, MINUTE, t0 + 1000)).allowed, true, 'keys count apart');
    assert.deepEqual(await one.hit('ip:1', 3, MINUTE, t0 + MINUTE), { allowed: true, retryAfterMs: MINUTE }, 'a new window after windowMs');
  });

  it('concurrent hits from both instances are each counted once', async () => {
    const limiters = storages.map((storage) => createRateLimiter(storage));
    const decisions = await Promise.all(Array.from({ length: 40 }, (_, index) => limiters[index % 2]!.hit('burst', 15, MINUTE, 9_000_000)));
    assert.equal(decisions.filter((decision) => decision.allowed).length, 15);
  });

  it('expired windows are deleted now and then, so the table does not keep one row per address ever seen', async () => {
    const storage = new PostgresStorage(database.url);
    try {
      for (let i = 0; i < 999; i++) await storage.countRateLimitHit(`old:${i}`, 1, 0);
      const rows = async () => {
        const client = new pg.Client({ connectionString: database.url });
        await client.connect();
        try {
          return Number((await client.query("SELECT COUNT(*) AS n FROM rate_limit_windows WHERE key LIKE 'old:%'")).rows[0].n);
        } finally {
          await client.end();
        }
      };
      assert.equal(await rows(), 999);
      await storage.countRateLimitHit('new', MINUTE, 10);
      assert.equal(await rows(), 0);
    } finally {
      await storage.close();
    }
  });
});

describe('two service instances on one PostgreSQL database share the abuse limits', { skip: server ? false : 'needs TEST_DATABASE_URL (scripts/with-postgres.sh)' }, () => {
  const dirs: string[] = [];
  let database: { url: string; drop(): Promise<void> };
  let services: RunningService[] = [];
  let apiKey = '';
  const clock = testClock();

  before(async () => {
    database = await freshDatabase('slk_limits_svc');
    const env = { RATE_LIMIT_SESSION_CREATE_PER_MINUTE: '3', RATE_LIMIT_TOKEN_LOOKUPS_PER_MINUTE: '4', RATE_LIMIT_CONNECT_STARTS_PER_SESSION: '2' };
    const start = () => {
      const dir = mkdtempSync(join(tmpdir(), 'slk-limits-'));
      dirs.push(dir);
      return startService({ config: readConfig({ DATA_DIR: dir, PORT: '0', DATABASE_URL: database.url, ...env }), clock });
    };
    services = await Promise.all([start(), start()]);
    ({ apiKey } = await createAccount(services[0]!.storage, clock));
  });
  after(async () => {
    for (const service of services) await service.close();
    await database?.drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  const create = (service: RunningService) =>
    fetch(`${service.url}/api/profiles/link-sessions`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
      body: '{}',
    }).then(async (response) => ({ status: response.status, retryAfter: response.headers.get('retry-after'), json: (await response.json()) as Record<string, any> }));

  it('session creation per API key: the budget is spent across instances', async () => {
    const [one, two] = services as [RunningService, RunningService];
    assert.equal((await create(one)).status, 200);
    assert.equal((await create(two)).status, 200);
    assert.equal((await create(one)).status, 200);
    const refused = await create(two);
    assert.equal(refused.status, 429);
    assert.equal(refused.json.code, ErrorCode.rateLimited);
    assert.equal(refused.retryAfter, '60');
    clock.advance(MINUTE);
  });

  it('token lookups per IP and connection starts per session: the budget is spent across instances', async () => {
    const [one, two] = services as [RunningService, RunningService];
    const client = createLinkClient({ baseUrl: `${one.url}/api`, apiKey });
    const session = await client.createLinkSession();
    const token = new URL(session.url).searchParams.get('session')!;
    const startConnect = (service: RunningService, platform: string) =>
      fetch(`${service.url}/api/link/connect/${platform}`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } }).then((r) => r.status);
    // Each call is one token lookup too (limit 4 per minute per IP).
    assert.equal(await startConnect(one, 'twitter'), 200);
    assert.equal(await startConnect(two, 'facebook'), 200);
    assert.equal(await startConnect(one, 'linkedin'), 429, 'the third start of the session, on either instance');
    const lookup = (service: RunningService, bearer: string) =>
      fetch(`${service.url}/api/link/session`, { headers: { Authorization: `Bearer ${bearer}` } }).then((r) => r.status);
    assert.equal(await lookup(two, 'A'.repeat(43)), 401);
    assert.equal(await lookup(one, token), 429, 'five lookups from this address across both instances');
    assert.equal(await lookup(two, token), 429);
    clock.advance(MINUTE);
    assert.equal(await lookup(two, token), 200);
  });
});
