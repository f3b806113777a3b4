/**
 * The link-session read cache (linking/session-read-cache.ts) never serves an answer a commit has changed. Each
 * service test first reads a session several times (so it is kept), then changes it and expects the change on the
 * very next `GET /api/profiles/link-sessions/{id}`: writes of this process through the API and the services (seen
 * through SQLite's total_changes), a write by another connection to the same file, as the admin CLI makes from its
 * own process (seen through data_version), and the passing of time (never kept). The unit tests at the end show
 * it does keep answers (a cache that always reads would pass the others) and stays off without a stamp (PostgreSQL).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SqliteDriver } from '../../src/core/db/sqlite-driver.js';
import type { SqlDriver } from '../../src/core/db/sql-driver.js';
import type { LinkSessionRecord } from '../../src/core/db/storage-types.js';
import { linkAccount } from '../../src/linking/service.js';
import { SessionReadCache } from '../../src/linking/session-read-cache.js';
import { startTestService, type TestService } from '../support/test-service.js';

describe('link-session reads see every change on the next read', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  /** The session as the API answers it, read three times in a row (all equal) so a cache would hold it. */
  async function readRepeatedly(sessionId: string, headers?: Record<string, string>): Promise<Record<string, any>> {
    const reads = [];
    for (let i = 0; i < 3; i++) {
      const read = await svc.api('GET', `/profiles/link-sessions/${sessionId}`, { headers });
      assert.equal(read.status, 200, JSON.stringify(read.json));
      reads.push(read.json);
    }
    assert.deepEqual(reads[1], reads[0]);
    assert.deepEqual(reads[2], reads[0]);
    return reads[0]!;
  }

  const read = async (sessionId: string, headers?: Record<string, string>) => (await svc.api('GET', `/profiles/link-sessions/${sessionId}`, { headers })).json;

  const link = (sessionId: string, platform: 'twitter' | 'facebook') =>
    linkAccount(
      svc.storage,
      sessionId,
      { profileId: svc.primaryProfile.id, platform, networkUserId: `u-${platform}`, displayName: 'Ada', username: 'ada', tokensEncrypted: null, linkedAt: svc.clock() },
      svc.clock(),
    );

  it('a linked account, and the same network linked again, show on the next read', async () => {
    const created = await svc.client.createLinkSession();
    assert.deepEqual((await readRepeatedly(created.sessionId)).completedNetworks, []);
    await link(created.sessionId, 'twitter');
    const linked = await read(created.sessionId);
    assert.deepEqual(linked.completedNetworks, ['twitter']);
    assert.equal(linked.lastCompletedAt, new Date(svc.clock()).toISOString());
    await readRepeatedly(created.sessionId);
    svc.clock.advance(5_000);
    await link(created.sessionId, 'twitter');
    assert.equal((await read(created.sessionId)).lastCompletedAt, new Date(svc.clock()).toISOString());
  });

  it('a revoke through the API shows on the next read', async () => {
    const created = await svc.client.createLinkSession();
    assert.equal((await readRepeatedly(created.sessionId)).state, 'active');
    const revoked = await svc.client.revokeLinkSession(created.sessionId);
    const after = await read(created.sessionId);
    assert.equal(after.state, 'revoked');
    assert.equal(after.revokedAt, revoked.revokedAt);
  });

  it('a deleted profile’s sessions read as revoked at once (a write inside a transaction)', async () => {
    const profile = await svc.api('POST', '/profiles', { body: { title: 'Leaving' } });
    const profileKey = profile.json.profileKey as string;
    const created = await svc.api('POST', '/profiles/link-sessions', { body: {}, headers: { 'Profile-Key': profileKey } });
    const sessionId = created.json.sessionId as string;
    // Read with its own profile's key (spec 4.6); once the profile is deleted its key is gone, and the Primary
    // Profile reads it.
    assert.equal((await readRepeatedly(sessionId, { 'Profile-Key': profileKey })).state, 'active');
    assert.equal((await svc.api('DELETE', '/profiles', { headers: { 'Profile-Key': profileKey } })).status, 200);
    assert.equal((await read(sessionId)).state, 'revoked');
  });

  it('expiry is computed at each answer, never kept', async () => {
    const created = await svc.client.createLinkSession();
    const expiresIn = Date.parse(created.expiresAt) - svc.clock();
    svc.clock.advance(expiresIn - 1);
    assert.equal((await readRepeatedly(created.sessionId)).state, 'active');
    svc.clock.advance(1);
    assert.equal((await read(created.sessionId)).state, 'expired');
  });

  it('a write by another connection to the same file (the admin CLI path) shows on the next read', async () => {
    const created = await svc.client.createLinkSession();
    assert.equal((await readRepeatedly(created.sessionId)).state, 'active');
    const { changes } = await svc.sql('UPDATE link_sessions SET revoked_at = ? WHERE id = ?', [svc.clock(), created.sessionId]);
    assert.equal(changes, 1);
    assert.equal((await read(created.sessionId)).state, 'revoked');
    await readRepeatedly(created.sessionId);
    await svc.sql('INSERT INTO link_session_completions (session_id, platform, first_completed_at, last_completed_at) VALUES (?, ?, ?, ?)', [
      created.sessionId,
      'reddit',
      svc.clock(),
      svc.clock(),
    ]);
    assert.deepEqual((await read(created.sessionId)).completedNetworks, ['reddit']);
  });
});

describe('SessionReadCache', () => {
  let dir: string;
  let driver: SqliteDriver;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'slk-session-cache-'));
    driver = new SqliteDriver(join(dir, 'cache.db'));
    await driver.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
  });
  after(async () => {
    await driver.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const record = { id: 'ls_1', completedNetworks: [], allowedSocial: null } as unknown as LinkSessionRecord;

  /** A read that counts how often the database was asked. */
  function countingRead(answer: LinkSessionRecord | null = record) {
    const read = async () => {
      read.calls += 1;
      return answer === null ? null : { ...answer };
    };
    read.calls = 0;
    return read;
  }

  it('keeps a found session until this connection writes, then reads again', async () => {
    const cache = new SessionReadCache(driver);
    const read = countingRead();
    await cache.find('a ls_1', read);
    const kept = await cache.find('a ls_1', read);
    assert.equal(read.calls, 1);
    assert.ok(Object.isFrozen(kept), 'a shared record cannot be changed by one answer');
    await driver.run('INSERT INTO t (v) VALUES (?)', ['x']);
    await cache.find('a ls_1', read);
    assert.equal(read.calls, 2);
  });

  it('a write that changes no row keeps the answer; another connection’s commit drops it', async () => {
    const cache = new SessionReadCache(driver);
    const read = countingRead();
    await cache.find('a ls_1', read);
    await driver.run('UPDATE t SET v = ? WHERE id = -1', ['none']);
    await cache.find('a ls_1', read);
    assert.equal(read.calls, 1);
    const other = new SqliteDriver(join(dir, 'cache.db'));
    try {
      await other.run('INSERT INTO t (v) VALUES (?)', ['from elsewhere']);
    } finally {
      await other.close();
    }
    await cache.find('a ls_1', read);
    assert.equal(read.calls, 2);
  });

  it('never keeps a missing session', async () => {
    const cache = new SessionReadCache(driver);
    const read = countingRead(null);
    assert.equal(await cache.find('a ls_none', read), null);
    assert.equal(await cache.find('a ls_none', read), null);
    assert.equal(read.calls, 2);
  });

  it('is off where the database gives no stamp (PostgreSQL)', async () => {
    const noStamp = { foreignCommitStamp: () => null } as unknown as SqlDriver;
    const cache = new SessionReadCache(noStamp);
    const read = countingRead();
    await cache.find('a ls_1', read);
    await cache.find('a ls_1', read);
    assert.equal(read.calls, 2);
  });
});
