/**
 * Which commits are answered only after a sync of the WAL (core/db/sqlite-settings.ts, wal-sync.ts): under the
 * default `SQLITE_SYNCHRONOUS=mixed` a link-session create is answered at once (it survives a kill -9, see
 * session-durability.test.ts) while a linked account and every commit of a publish attempt wait for a sync, and in
 * a batch that mixes a session with another write that write waits; with `SQLITE_SYNCHRONOUS=full` every commit
 * waits. What the service answered is in a power-loss image taken at the last sync that had ended (the model of
 * test/core/sqlite-durable-commit.test.ts, which also shows reads answered while a sync runs). SQLite only
 * (PostgreSQL commits every write as its server's `synchronous_commit` says).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CommitObservation } from '../../src/core/db/write-batch.js';
import { SqliteDriver } from '../../src/core/db/sqlite-driver.js';
import { hashSecret, newSecret, newTimeOrderedId } from '../../src/core/tokens.js';
import { linkAccount } from '../../src/linking/service.js';
import { commitsDuring as commitsOf, readImage, withPowerLossImages } from '../support/sqlite-observe.js';
import { startTestService, type TestService } from '../support/test-service.js';

const onSqlite = !process.env.TEST_DATABASE_URL;

const isSessionInsert = (sql: string) => /^\s*INSERT INTO link_sessions\b/.test(sql);

/** The commits the service's driver makes while `work` runs (the service's own background jobs' included). */
const commitsDuring = (svc: TestService, work: () => Promise<unknown>): Promise<CommitObservation[]> => commitsOf(svc.storage.driver as SqliteDriver, work);

describe('commit durability by kind of write, SQLITE_SYNCHRONOUS=mixed (default)', { skip: !onSqlite }, () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ env: { JOBS_POLL_MS: '2000000000', SANDBOX_NETWORKS: 'all' } });
  });
  after(() => svc?.close());

  it('answers a link-session create without waiting for a sync', async () => {
    const commits = await commitsDuring(svc, async () => {
      for (let i = 0; i < 5; i++) await svc.client.createLinkSession({});
    });
    const withSessions = commits.filter((commit) => commit.writes.some(isSessionInsert));
    assert.equal(withSessions.flatMap((commit) => commit.writes).filter(isSessionInsert).length, 5);
    // The service's background jobs may share a session's batch: their writes wait for a sync (the next test).
    const sessionsOnly = withSessions.filter((commit) => commit.transactions === 0 && commit.writes.every(isSessionInsert));
    assert.ok(sessionsOnly.length > 0);
    assert.deepEqual(new Set(sessionsOnly.map((commit) => commit.awaitsSync)), new Set([false]));
  });

  it('syncs a batch where a session create meets any other write', async () => {
    const session = (await svc.client.createLinkSession({})).sessionId;
    const commits = await commitsDuring(svc, async () => {
      const now = svc.clock();
      // Both writes in one turn, so they share one batch.
      await Promise.all([
        svc.storage.linking.createLinkSession({
          id: newTimeOrderedId('ls_', now), tokenHash: hashSecret(newSecret()), accountId: svc.account.id, profileId: svc.primaryProfile.id,
          origin: null, redirect: null, domain: 'dev', allowedSocial: null, instagramLinkMethod: null, locale: null, createdAt: now, expiresAt: now + 60_000,
        }),
        svc.storage.linking.createTelegramCode({ codeHash: hashSecret(newSecret()), sessionId: session, createdAt: now, expiresAt: now + 60_000, usedAt: null }),
      ]);
    });
    const shared = commits.filter((commit) => commit.writes.some(isSessionInsert));
    assert.equal(shared.length, 1);
    assert.equal(shared[0]!.writes.length, 2);
    assert.equal(shared[0]!.awaitsSync, true);
  });

  it('syncs a linked account and every commit of a publish attempt but its fences and the accept', async () => {
    const session = (await svc.client.createLinkSession({})).sessionId;
    const linking = await commitsDuring(svc, () =>
      linkAccount(svc.storage, session, {
        profileId: svc.primaryProfile.id, platform: 'twitter', networkUserId: 'u1', displayName: 'd', username: 'u', tokensEncrypted: null,
        linkedAt: svc.clock(), accountType: null,
      }, svc.clock()),
    );
    assert.ok(linking.some((commit) => commit.transactions > 0));
    assert.deepEqual(new Set(linking.map((commit) => commit.awaitsSync)), new Set([true]));

    assert.equal((await svc.api('POST', '/sandbox/accounts', { body: { platform: 'linkedin' } })).status, 200);
    let status = '';
    const publishing = await commitsDuring(svc, async () => {
      status = (await svc.api('POST', '/post', { body: { post: 'Durable attempts', platforms: ['linkedin'] } })).json.status;
    });
    assert.equal(status, 'success');
    assert.ok(publishing.length >= 2, `expected the attempt's commits, saw ${publishing.length}`);
    // Issue 31: the accept (the first commit) waits for no sync of its own, the attempt's "commit started" sync
    // covers it, and the answer waits until it is durable (the power-loss image below); the fence before the send
    // need only survive a process crash (job-store.ts); every other commit of the attempt is synced. linkedin does not
    // thread: the fence's note is cleared by the result's transaction, not by a commit of its own (lease-held-call.ts).
    const fenceOrClear = (commit: CommitObservation) => commit.transactions === 0 && commit.writes.every((sql) => /^\s*UPDATE jobs SET (lease_until = .*call_until|call_until = NULL)/.test(sql));
    assert.deepEqual(publishing[0], { writes: [], transactions: 1, awaitsSync: false }, 'the accept');
    assert.deepEqual(new Set(publishing.slice(1).filter((commit) => !fenceOrClear(commit)).map((commit) => commit.awaitsSync)), new Set([true]));
    assert.deepEqual(publishing.filter(fenceOrClear).map((commit) => commit.awaitsSync), [false]);
  });

  it('keeps an answered post and its attempt in the power-loss image of the answer', async () => {
    assert.equal((await svc.api('POST', '/sandbox/accounts', { body: { platform: 'linkedin' } })).status, 200);
    const { answer, image } = await withPowerLossImages(svc.storage.driver as SqliteDriver, svc.config.databaseFile, svc.dir, async (durableNow) => {
      const answer = await svc.api('POST', '/post', { body: { post: 'Survives a power loss', platforms: ['linkedin'] } });
      return { answer, image: durableNow() };
    });
    assert.equal(answer.json.status, 'success');
    assert.ok(image, 'answered before any sync had ended');
    const stored = readImage(image, (db) => ({
      platform: db.prepare("SELECT status FROM post_platforms WHERE post_id = ? AND platform = 'linkedin'").get(answer.json.id),
      attempts: db.prepare('SELECT outcome FROM publish_attempts WHERE post_id = ?').all(answer.json.id),
    }));
    assert.deepEqual(stored.platform, { status: 'success' });
    assert.ok(stored.attempts.length >= 1);
  });
});

describe('commit durability, SQLITE_SYNCHRONOUS=full', { skip: !onSqlite }, () => {
  it('syncs every commit, link-session creates included', async () => {
    const svc = await startTestService({ env: { SQLITE_SYNCHRONOUS: 'full' } });
    try {
      const commits = await commitsDuring(svc, () => Promise.all([svc.client.createLinkSession({}), svc.client.createLinkSession({})]));
      const sessions = commits.filter((commit) => commit.writes.some(isSessionInsert));
      assert.equal(sessions.flatMap((commit) => commit.writes).filter(isSessionInsert).length, 2);
      assert.deepEqual(new Set(commits.map((commit) => commit.awaitsSync)), new Set([true]));
    } finally {
      await svc.close();
    }
  });
});
