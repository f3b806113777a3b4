/**
 * The account-health sweep beyond the basic lifecycle (SQLite, or PostgreSQL with TEST_DATABASE_URL):
 * - two service instances on one database, with two sweeps running at once: ONE renewal per account at the network;
 * - a network whose tokens do not expire gets an identity check instead; a grant the network no longer accepts is
 *   `revoked` (one `account.needs_relink`, status revoked);
 * - a long-lived token the service cannot renew while the network is down: one `account.expiring` before it ends,
 *   then `account.recovered` when renewals work again.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Network } from '@social-link-kit/protocol';
import { readConfig } from '../../src/config.js';
import { startService, type RunningService } from '../../src/server.js';
import { openStorage } from '../../src/storage/open-storage.js';
import type { TestService } from '../support/test-service.js';
import { eventually, type WebhookReceiver } from '../support/webhook-receiver.js';
import { closeWithReceiver } from '../webhooks/fixtures.js';
import { FAST_JOBS, linkSandboxAccounts } from '../publishing/publishing-fixtures.js';
import { advance, createProfile, DAY, eventsOf, HOUR, profileHealth, registerWebhooks, setRefreshSwitch, startHealthService } from './fixtures.js';


describe('account health sweep', () => {
  let svc: TestService;
  let receiver: WebhookReceiver;
  before(async () => ({ svc, receiver } = await startHealthService()));
  after(() => closeWithReceiver(svc, receiver));

  const userOf = async (profileKey: string) => (await svc.api('GET', '/user', { headers: { 'Profile-Key': profileKey } })).json;

  it('two instances, two sweeps at once: one renewal per account at the network', async () => {
    const profileKey = await createProfile(svc, 'two instances');
    const platforms: Network[] = ['linkedin', 'youtube', 'reddit', 'pinterest', 'tiktok', 'gmb'];
    await linkSandboxAccounts(svc, platforms, profileKey);
    const { refId, displayNames } = await userOf(profileKey);
    const ids = (displayNames as { id: string }[]).map((account) => account.id);
    const spent = async () => (await svc.sql(`SELECT account_id, COUNT(*) AS n FROM sandbox_tokens WHERE kind = 'refresh' AND used_at IS NOT NULL AND account_id IN (${ids.map(() => '?').join(', ')}) GROUP BY account_id`, ids)).rows;
    assert.deepEqual(await spent(), []);

    // A second instance on the same database, and a second sweep row (as if a lease had lapsed): both run at once.
    const second: RunningService = await startService({
      config: readConfig({ DATA_DIR: svc.dir, PORT: '0', HOST: '127.0.0.1', ...FAST_JOBS, ...(svc.config.databaseUrl && { DATABASE_URL: svc.config.databaseUrl }) }),
      storage: await openStorage(svc.config),
      clock: svc.clock,
      tokenCipher: svc.tokenCipher,
    });
    try {
      await svc.sql("INSERT INTO jobs (id, kind, subject, payload, run_at, created_at) VALUES ('job_account_health_sweep_2', 'account-health', 'account-health', '{}', ?, ?)", [svc.clock(), svc.clock()]);
      const profile = await svc.sql('SELECT id FROM profiles WHERE ref_id = ?', [refId]);
      await svc.sql('UPDATE account_health SET next_refresh_at = ? WHERE profile_id = ?', [svc.clock() + 60_000, profile.rows[0]!.id]);
      svc.clock.advance(60_000);
      await eventually(
        () => svc.sql("SELECT COUNT(*) AS n FROM jobs WHERE kind = 'account-health' AND (run_at <= ? OR lease_until IS NOT NULL)", [svc.clock()]),
        (result) => Number(result.rows[0]!.n) === 0,
        20_000,
      );
      const counts = await spent();
      assert.equal(counts.length, platforms.length, JSON.stringify(counts));
      assert.ok(counts.every((row) => Number(row.n) === 1), `one renewal each: ${JSON.stringify(counts)}`);
      const health = await profileHealth(svc, profileKey);
      assert.ok(health.every((account) => account.status === 'healthy' && Date.parse(account.lastRefreshedAt) === svc.clock()), JSON.stringify(health));
    } finally {
      await svc.sql("DELETE FROM jobs WHERE id = 'job_account_health_sweep_2'");
      await second.close();
    }
  });

  it('tokens that do not expire get an identity check; a grant the network no longer accepts is revoked, said once', async () => {
    const profileKey = await createProfile(svc, 'identity');
    await registerWebhooks(svc, receiver, profileKey);
    await linkSandboxAccounts(svc, ['facebook'], profileKey);
    const { refId, displayNames } = await userOf(profileKey);
    await advance(svc, DAY + HOUR);
    let [account] = await profileHealth(svc, profileKey);
    assert.equal(account!.status, 'healthy');
    assert.ok(account!.lastRefreshedAt, 'checked within a day');
    // The person removes the app at the network: its tokens stop working.
    await svc.sql('UPDATE sandbox_tokens SET expires_at = ? WHERE account_id = ?', [svc.clock() - 1, displayNames[0].id]);
    await advance(svc, 2 * DAY);
    [account] = await profileHealth(svc, profileKey);
    assert.equal(account!.status, 'revoked', JSON.stringify(account));
    assert.equal(account!.lastError.code, 'revoked');
    await receiver.waitFor((hook) => JSON.parse(hook.body).refId === refId && JSON.parse(hook.body).event === 'account.needs_relink');
    assert.deepEqual(
      eventsOf(receiver, refId).map((event) => [event.event, event.status]),
      [['account.needs_relink', 'revoked']],
    );
  });

  it('a long-lived token the service cannot renew while the network is down: one account.expiring, then recovered', async () => {
    const profileKey = await createProfile(svc, 'expiring');
    await registerWebhooks(svc, receiver, profileKey);
    await linkSandboxAccounts(svc, ['linkedin'], profileKey);
    const { refId, displayNames } = await userOf(profileKey);
    const accountId = displayNames[0].id as string;
    // linkedin's access tokens live 60 days; here 10, so the notice (7 days) comes within a short outage.
    await setRefreshSwitch(svc, 'linkedin', accountId, { expiresInMinutes: 10 * 24 * 60 });
    await advance(svc, DAY + HOUR);
    const [renewed] = await profileHealth(svc, profileKey);
    const expiresAt = Date.parse(renewed!.tokenExpiresAt);
    assert.ok(expiresAt - svc.clock() > 9 * DAY, JSON.stringify(renewed));
    await setRefreshSwitch(svc, 'linkedin', accountId, { expiresInMinutes: 10 * 24 * 60, transientMinutes: 5 * 24 * 60 });
    await advance(svc, 4 * DAY);
    const [degraded] = await profileHealth(svc, profileKey);
    assert.equal(degraded!.status, 'degraded');
    await receiver.waitFor((hook) => JSON.parse(hook.body).refId === refId && JSON.parse(hook.body).event === 'account.expiring');
    await advance(svc, 2 * DAY);
    const [back] = await profileHealth(svc, profileKey);
    assert.equal(back!.status, 'healthy', JSON.stringify(back));
    await receiver.waitFor((hook) => JSON.parse(hook.body).refId === refId && JSON.parse(hook.body).event === 'account.recovered');
    assert.deepEqual(
      eventsOf(receiver, refId).map((event) => [event.event, event.expiresAt ?? event.after]),
      [
        ['account.expiring', new Date(expiresAt).toISOString()],
        ['account.recovered', 'transient_cleared'],
      ],
    );
  });
});
