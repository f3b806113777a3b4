/**
 * Which commits are fsynced (core/db/sqlite-settings.ts, write-batch.ts), read back from SQLite itself at each
 * commit: under the default `SQLITE_SYNCHRONOUS=mixed` a link-session create commits at NORMAL (survives a kill -9,
 * see session-durability.test.ts) while a linked account, a publish attempt and a batch that mixes a session with
 * any other write commit at FULL; with `SQLITE_SYNCHRONOUS=full` every commit is at FULL. SQLite only (PostgreSQL
 * commits every write as its server's `synchronous_commit` says).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CommitObservation } from '../../src/core/db/write-batch.js';
import { SqliteDriver } from '../../src/core/db/sqlite-driver.js';
import { hashSecret, newSecret, newTimeOrderedId } from '../../src/core/tokens.js';
import { linkAccount } from '../../src/linking/service.js';
import { startTestService, type TestService } from '../support/test-service.js';

const onSqlite = !process.env.TEST_DATABASE_URL;

const isSessionInsert = (sql: string) => /^\s*INSERT INTO link_sessions\b/.test(sql);

/** The commits the service's driver makes while `work` runs (the service's own background jobs' included). */
async function commitsDuring(svc: TestService, work: () => Promise<unknown>): Promise<CommitObservation[]> {
  const driver = svc.storage.driver as SqliteDriver;
  const seen: CommitObservation[] = [];
  driver.observeCommits((observation) => seen.push(observation));
  try {
    await work();
  } finally {
    driver.observeCommits(null);
  }
  return seen;
}

async function connectionLevel(svc: TestService): Promise<unknown> {
  return (await svc.storage.driver.get('PRAGMA synchronous'))!.synchronous;
}

describe('commit durability by kind of write, SQLITE_SYNCHRONOUS=mixed (default)', { skip: !onSqlite }, () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ env: { JOBS_POLL_MS: '2000000000', SANDBOX_NETWORKS: 'all' } });
  });
  after(() => svc?.close());

  it('commits a link-session create without an fsync (NORMAL), then returns the connection to FULL', async () => {
    const commits = await commitsDuring(svc, async () => {
      for (let i = 0; i < 5; i++) await svc.client.createLinkSession({});
    });
    const withSessions = commits.filter((commit) => commit.writes !== 'transaction' && commit.writes.some(isSessionInsert));
    assert.equal(withSessions.flatMap((commit) => commit.writes).filter(isSessionInsert).length, 5);
    // The service's background jobs may share a session's batch: such a batch is fsynced (the next test).
    const sessionsOnly = withSessions.filter((commit) => commit.writes !== 'transaction' && commit.writes.every(isSessionInsert));
    assert.ok(sessionsOnly.length > 0);
    assert.deepEqual(new Set(sessionsOnly.map((commit) => commit.synchronous)), new Set(['NORMAL']));
    assert.equal(await connectionLevel(svc), 2);
  });

  it('fsyncs (FULL) a batch where a session create meets any other write', async () => {
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
    const shared = commits.filter((commit) => commit.writes !== 'transaction' && commit.writes.some(isSessionInsert));
    assert.equal(shared.length, 1);
    assert.equal(shared[0]!.writes.length, 2);
    assert.equal(shared[0]!.synchronous, 'FULL');
  });

  it('fsyncs (FULL) a linked account and every commit of a publish attempt', async () => {
    const session = (await svc.client.createLinkSession({})).sessionId;
    const linking = await commitsDuring(svc, () =>
      linkAccount(svc.storage, session, {
        profileId: svc.primaryProfile.id, platform: 'twitter', networkUserId: 'u1', displayName: 'd', username: 'u', tokensEncrypted: null,
        linkedAt: svc.clock(), accountType: null,
      }, svc.clock()),
    );
    assert.ok(linking.some((commit) => commit.writes === 'transaction'));
    assert.deepEqual(new Set(linking.map((commit) => commit.synchronous)), new Set(['FULL']));

    assert.equal((await svc.api('POST', '/sandbox/accounts', { body: { platform: 'linkedin' } })).status, 200);
    let status = '';
    const publishing = await commitsDuring(svc, async () => {
      status = (await svc.api('POST', '/post', { body: { post: 'Durable attempts', platforms: ['linkedin'] } })).json.status;
    });
    assert.equal(status, 'success');
    assert.ok(publishing.length >= 2, `expected the attempt's commits, saw ${publishing.length}`);
    assert.deepEqual(new Set(publishing.map((commit) => commit.synchronous)), new Set(['FULL']));
  });
});

describe('commit durability, SQLITE_SYNCHRONOUS=full', { skip: !onSqlite }, () => {
  it('fsyncs every commit, link-session creates included', async () => {
    const svc = await startTestService({ env: { SQLITE_SYNCHRONOUS: 'full' } });
    try {
      const commits = await commitsDuring(svc, () => Promise.all([svc.client.createLinkSession({}), svc.client.createLinkSession({})]));
      const sessions = commits.filter((commit) => commit.writes !== 'transaction' && commit.writes.some(isSessionInsert));
      assert.equal(sessions.flatMap((commit) => commit.writes).filter(isSessionInsert).length, 2);
      assert.deepEqual(new Set(commits.map((commit) => commit.synchronous)), new Set(['FULL']));
    } finally {
      await svc.close();
    }
  });
});
