// The storage and logging work of one request, each piece alone, in µs per operation (min / median of 3 rounds):
// the link-session read (today's statement beside the alternatives), findCaller, one access-log line, a post create's
// suspension check with its linked-account read (two selects, or one), group commits
// of 12 session creates (random or time-ordered ids, SQLITE_SYNCHRONOUS full or mixed), and group commits of N
// inserts with the BEGIN/COMMIT issued three ways. On a real SQLite file (synchronous=FULL, the
// default) and, when TEST_DATABASE_URL is set (scripts/with-postgres.sh), the session reads on PostgreSQL too.
// CPU µs (this process: the whole cost of SQLite work, hardly moved by other load) and wall µs (with the fsync, and
// the PostgreSQL server's time). Run: node --import tsx bench/storage-ops.mjs   (ROUNDS, OPS change the sizes)
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAccount } from '../server/src/accounts/service.ts';
import { jsonLogLine } from '../server/src/core/observability/json-log.ts';
import { ServiceMetrics } from '../server/src/core/observability/metrics.ts';
import { hashSecret, newId, newSecret, newTimeOrderedId } from '../server/src/core/tokens.ts';
import { assertNotSuspended, linkedAccountsUnlessSuspended } from '../server/src/accounts/suspension.ts';
import { linkAccount } from '../server/src/linking/service.ts';
import { PostgresStorage } from '../server/src/storage/postgres.ts';
import { SqliteStorage } from '../server/src/storage/sqlite.ts';

const ROUNDS = Number(process.env.ROUNDS ?? 3);
const OPS = Number(process.env.OPS ?? 20_000);
const SESSIONS = 1_000;

/**
 * Measures a group of operations side by side: each round runs every one of them OPS times in turn (so a change of
 * the machine's load hits all alike), awaiting an op that returns a promise. Records CPU µs per op of this process
 * (user + system, what other processes' load hardly moves) and wall µs per op; min and median over the rounds.
 */
async function measureGroup(cases, ops = OPS) {
  for (const [, op] of cases) for (let i = 0; i < Math.min(ops, 2_000); i++) await op(i);
  const cpu = cases.map(() => []);
  const wall = cases.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [index, [, op]] of cases.entries()) {
      const cpuBefore = process.cpuUsage();
      const started = process.hrtime.bigint();
      for (let i = 0; i < ops; i++) {
        const result = op(i);
        if (result instanceof Promise) await result;
      }
      wall[index].push(Number(process.hrtime.bigint() - started) / 1_000 / ops);
      const used = process.cpuUsage(cpuBefore);
      cpu[index].push((used.user + used.system) / ops);
    }
  }
  const minMedian = (values) => {
    const sorted = [...values].sort((a, b) => a - b);
    return [sorted[0], sorted[Math.floor((sorted.length - 1) / 2)]].map((value) => value.toFixed(2).padStart(8)).join(' ');
  };
  for (const [index, [name]] of cases.entries()) console.log(`${name.padEnd(68)} ${minMedian(cpu[index])}   ${minMedian(wall[index])}`);
}

/** The statements compared for a session read: what linking/store.ts ran, and the alternatives. */
function sessionReads(dialect) {
  const agg = dialect === 'sqlite' ? 'json_group_array(c.platform ORDER BY c.first_completed_at, c.platform)' : 'json_agg(c.platform ORDER BY c.first_completed_at, c.platform)::text';
  return {
    subqueries: `SELECT s.*,
      COALESCE((SELECT ${agg} FROM link_session_completions c WHERE c.session_id = s.id), '[]') AS completed_networks,
      (SELECT MIN(first_completed_at) FROM link_session_completions c WHERE c.session_id = s.id) AS completed_at,
      (SELECT MAX(last_completed_at) FROM link_session_completions c WHERE c.session_id = s.id) AS last_completed_at
      FROM link_sessions s WHERE s.account_id = ? AND s.id = ? AND s.kind = 'session'`,
    rowOnly: "SELECT s.* FROM link_sessions s WHERE s.account_id = ? AND s.id = ? AND s.kind = 'session'",
    completions: 'SELECT platform, first_completed_at, last_completed_at FROM link_session_completions WHERE session_id = ?',
    leftJoin: `SELECT s.*, c.platform AS c_platform, c.first_completed_at AS c_first, c.last_completed_at AS c_last
      FROM link_sessions s LEFT JOIN link_session_completions c ON c.session_id = s.id
      WHERE s.account_id = ? AND s.id = ? AND s.kind = 'session'`,
  };
}

async function seed(storage) {
  const clock = () => 1_800_000_000_000;
  const { account, primaryProfile, apiKey } = await createAccount(storage, clock);
  const ids = [];
  for (let i = 0; i < SESSIONS; i++) {
    const id = newId('ls_');
    ids.push(id);
    await storage.linking.createLinkSession({
      id, tokenHash: hashSecret(newSecret()), accountId: account.id, profileId: primaryProfile.id, origin: null, redirect: null,
      domain: 'dev', allowedSocial: null, instagramLinkMethod: 'instagram', locale: null, createdAt: clock(), expiresAt: clock() + 3_600_000,
    });
  }
  // One session in ten has two completed networks; the others none (a freshly created session, as the bench reads).
  for (let i = 0; i < SESSIONS; i += 10) {
    for (const platform of ['twitter', 'facebook']) {
      await linkAccount(storage, ids[i], {
        profileId: primaryProfile.id, platform, networkUserId: `u${i}`, displayName: 'd', username: 'u', tokensEncrypted: null, linkedAt: clock(), accountType: null,
      }, clock() + i);
    }
  }
  return { account, apiKey, ids };
}

async function sqliteRun() {
  const dir = mkdtempSync(join(tmpdir(), 'slk-storage-ops-'));
  const file = join(dir, 'service.db');
  const storage = new SqliteStorage(file);
  await storage.migrate();
  const { account, apiKey, ids } = await seed(storage);
  const pick = (i) => ids[i % ids.length];

  // Raw statements on a second connection: the statement's own cost, without the driver around it.
  const db = new Database(file);
  const sql = sessionReads('sqlite');
  const statements = Object.fromEntries(Object.entries(sql).map(([name, text]) => [name, db.prepare(text)]));
  await measureGroup([
    ['sqlite: session read, 3 correlated subqueries (raw get, before)', (i) => statements.subqueries.get(account.id, pick(i))],
    ['sqlite: session row by key only (raw get)', (i) => statements.rowOnly.get(account.id, pick(i))],
    ['sqlite: row + completions, two statements (raw)', (i) => {
      statements.rowOnly.get(account.id, pick(i));
      statements.completions.all(pick(i));
    }],
    ['sqlite: row LEFT JOIN completions, one statement (raw all)', (i) => statements.leftJoin.all(account.id, pick(i))],
    ['sqlite: findLinkSession through the store', (i) => storage.linking.findLinkSession(account.id, pick(i))],
  ]);

  const keyHash = hashSecret(apiKey);
  const unknownProfileKeyHash = hashSecret('pk_unknown');
  const requestId = '0b8e7c52-3c55-4d9c-9a6f-8c7c7a3e9d11';
  const metrics = new ServiceMetrics();
  await measureGroup([
    ['findCaller, cached', () => storage.accounts.findCaller(keyHash, null)],
    ['caller from the database, 2 selects (before)', async () => {
      const found = await storage.accounts.findAccountByApiKeyHash(keyHash);
      await storage.accounts.findPrimaryProfile(found.id);
    }],
    // An unknown Profile-Key is never cached: this is findCaller's database statement each time.
    ['findCaller from the database, one statement', () => storage.accounts.findCaller(keyHash, unknownProfileKeyHash)],
    ['hashSecret (sha256 of an API key)', () => hashSecret(apiKey)],
    ['jsonLogLine: one access line with redaction', () =>
      jsonLogLine('info', 'request', { requestId, method: 'GET', route: '/api/profiles/link-sessions/:sessionId', status: 200, ms: 1 })],
    ['metrics.request: one request counted', () => metrics.request('GET', '/api/profiles/link-sessions/:sessionId', 200, 0.001)],
  ]);
  // A post's create to one network (the profile has two linked): the suspension check and the linked account read.
  const profileId = (await storage.accounts.findCaller(keyHash, null)).profile.id;
  await measureGroup([
    ['post create to 1 network: suspension check + linked account, 2 selects (before)', async () => {
      await assertNotSuspended(storage.driver, profileId, 'post');
      await storage.linking.findSocialAccount(profileId, 'twitter');
    }],
    ['post create to 2 networks: suspension check + 2 linked accounts, 3 selects (before)', async () => {
      await assertNotSuspended(storage.driver, profileId, 'post');
      await Promise.all(['twitter', 'facebook'].map((platform) => storage.linking.findSocialAccount(profileId, platform)));
    }],
    ['post create to 1 or 2 networks: linkedAccountsUnlessSuspended, one statement', () => linkedAccountsUnlessSuspended(storage.driver, profileId, 'post')],
  ]);
  await storage.close();
  await sessionCreates(dir);

  // Group commit of N inserts on a file of its own (synchronous=FULL): BEGIN/COMMIT by exec (parsed each time),
  // by prepared statements, and by better-sqlite3's db.transaction(). Wall time includes the fsync.
  const batchDb = new Database(join(dir, 'batch.db'));
  batchDb.pragma('journal_mode = WAL');
  batchDb.pragma('synchronous = FULL');
  batchDb.exec('CREATE TABLE items (id TEXT PRIMARY KEY, a TEXT, b INTEGER)');
  const insert = batchDb.prepare('INSERT INTO items (id, a, b) VALUES (?, ?, ?)');
  const beginStatement = batchDb.prepare('BEGIN IMMEDIATE');
  const commitStatement = batchDb.prepare('COMMIT');
  let n = 0;
  const inserts = (size) => {
    for (let k = 0; k < size; k++) insert.run(`i${n++}`, 'x', k);
  };
  const inTransaction = batchDb.transaction(inserts);
  for (const size of [1, 12, 20]) {
    await measureGroup([
      [`sqlite FULL: commit of ${String(size).padStart(2)} inserts, BEGIN/COMMIT by exec`, () => {
        batchDb.exec('BEGIN IMMEDIATE');
        inserts(size);
        batchDb.exec('COMMIT');
      }],
      [`sqlite FULL: commit of ${String(size).padStart(2)} inserts, BEGIN/COMMIT prepared`, () => {
        beginStatement.run();
        inserts(size);
        commitStatement.run();
      }],
      [`sqlite FULL: commit of ${String(size).padStart(2)} inserts, db.transaction()`, () => inTransaction.immediate(size)],
    ], 300);
  }
  batchDb.close();
  // The same without the disk, to see the CPU of BEGIN/COMMIT alone.
  const memory = new Database(':memory:');
  memory.exec('CREATE TABLE items (id INTEGER PRIMARY KEY)');
  const memoryBegin = memory.prepare('BEGIN IMMEDIATE');
  const memoryCommit = memory.prepare('COMMIT');
  await measureGroup([
    ['sqlite in memory: empty BEGIN IMMEDIATE/COMMIT by exec', () => {
      memory.exec('BEGIN IMMEDIATE');
      memory.exec('COMMIT');
    }],
    ['sqlite in memory: empty BEGIN IMMEDIATE/COMMIT prepared', () => {
      memoryBegin.run();
      memoryCommit.run();
    }],
  ]);
  memory.close();
  db.close();
  rmSync(dir, { recursive: true, force: true });
}

/**
 * Link-session creates as the service stores them, 12 at once (one group commit, as at 20 connections): random ids
 * (before) beside time-ordered ids, at SQLITE_SYNCHRONOUS=full (every commit fsynced) and at the default mixed
 * (a batch of session creates commits without an fsync). Each on a file of its own holding 20,000 sessions first.
 */
async function sessionCreates(dir) {
  const cases = [];
  const storages = [];
  for (const synchronous of ['full', 'mixed']) {
    for (const [idName, idOf] of [['random ids', () => newId('ls_')], ['time-ordered ids', () => newTimeOrderedId('ls_', Date.now())]]) {
      const storage = new SqliteStorage(join(dir, `sessions-${synchronous}-${idName.replace(/ /g, '-')}.db`), synchronous);
      storages.push(storage);
      await storage.migrate();
      const { account, primaryProfile } = await createAccount(storage, () => Date.now());
      const create = () => {
        const now = Date.now();
        return storage.linking.createLinkSession({
          id: idOf(), tokenHash: hashSecret(newSecret()), accountId: account.id, profileId: primaryProfile.id, origin: null, redirect: null,
          domain: 'dev', allowedSocial: null, instagramLinkMethod: 'instagram', locale: null, createdAt: now, expiresAt: now + 3_600_000,
        });
      };
      const twelve = () => Promise.all(Array.from({ length: 12 }, create));
      for (let i = 0; i < 20_000 / 12; i++) await twelve();
      cases.push([`sqlite ${synchronous}: 12 session creates in one commit, ${idName}`, twelve]);
    }
  }
  await measureGroup(cases, Math.min(OPS, 1_000));
  for (const storage of storages) await storage.close();
}

async function postgresRun(url) {
  const server = new URL(url);
  const name = `storage_ops_${process.pid}`;
  const admin = new PostgresStorage(url);
  await admin.driver.exec(`CREATE DATABASE ${name}`);
  server.pathname = `/${name}`;
  const storage = new PostgresStorage(server.toString());
  try {
    await storage.migrate();
    const { account, apiKey, ids } = await seed(storage);
    const keyHash = hashSecret(apiKey);
    const pick = (i) => ids[i % ids.length];
    const sql = sessionReads('postgres');
    const ops = Math.min(OPS, 3_000);
    await measureGroup([
      ['postgres: session read, 3 correlated subqueries (before)', (i) => storage.driver.get(sql.subqueries, [account.id, pick(i)])],
      ['postgres: session row by key only', (i) => storage.driver.get(sql.rowOnly, [account.id, pick(i)])],
      ['postgres: row + completions, two statements', async (i) => {
        await storage.driver.get(sql.rowOnly, [account.id, pick(i)]);
        await storage.driver.all(sql.completions, [pick(i)]);
      }],
      ['postgres: row LEFT JOIN completions, one statement', (i) => storage.driver.all(sql.leftJoin, [account.id, pick(i)])],
      ['postgres: findLinkSession through the store', (i) => storage.linking.findLinkSession(account.id, pick(i))],
    ], ops);
    await measureGroup([
      ['postgres: caller, 2 selects (before)', async () => {
        const found = await storage.accounts.findAccountByApiKeyHash(keyHash);
        await storage.accounts.findPrimaryProfile(found.id);
      }],
      // The caller cache is off on PostgreSQL: every findCaller reads the database.
      ['postgres: findCaller, one statement', () => storage.accounts.findCaller(keyHash, null)],
    ], ops);
  } finally {
    await storage.close();
    await admin.driver.exec(`DROP DATABASE ${name} WITH (FORCE)`);
    await admin.close();
  }
}

console.log(`${'µs per operation'.padEnd(68)} ${'CPU min'.padStart(8)} ${'median'.padStart(8)}   ${'wall min'.padStart(8)} ${'median'.padStart(8)}`);
await sqliteRun();
if (process.env.TEST_DATABASE_URL) await postgresRun(process.env.TEST_DATABASE_URL);
