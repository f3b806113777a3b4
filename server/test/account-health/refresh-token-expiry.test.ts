/**
 * tiktok's refresh token ends 365 days after the user's consent, however often it is renewed (SQLite, or PostgreSQL
 * with TEST_DATABASE_URL), on the service clock, linked through the sandbox consent screen:
 * - the service renews the account daily (the refresh token rotates, keeping its end) and stays healthy;
 * - `ACCOUNT_EXPIRING_DAYS` (7) before that end: exactly ONE `account.expiring`, `expiresAt` = the refresh token's end;
 * - after it the network refuses the refresh token (`invalid_grant`): the account needs a relink, said once.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TestService } from '../support/test-service.js';
import type { WebhookReceiver } from '../support/webhook-receiver.js';
import { closeWithReceiver } from '../webhooks/fixtures.js';
import { advance, createProfile, DAY, eventsOf, HOUR, linkThroughConsent, profileHealth, registerWebhooks, startHealthService } from './fixtures.js';


describe('refresh tokens that end a year after consent (tiktok)', () => {
  let svc: TestService;
  let receiver: WebhookReceiver;
  before(async () => ({ svc, receiver } = await startHealthService()));
  after(() => closeWithReceiver(svc, receiver));

  it('one account.expiring with the refresh token end, 7 days before it, while healthy; a relink needed after it', async () => {
    const profileKey = await createProfile(svc, 'tiktok year');
    await registerWebhooks(svc, receiver, profileKey);
    const consentAt = svc.clock();
    await linkThroughConsent(svc, profileKey, 'tiktok');
    const refreshEnd = new Date(consentAt + 365 * DAY).toISOString();
    const { refId } = (await svc.api('GET', '/user', { headers: { 'Profile-Key': profileKey } })).json as { refId: string };

    // The clock moves a day per step, so each step must land after the account's own time of day: a step landing
    // within the hour before it would meet it only every other day. Two hours past the first renewal does, on a whole
    // second: the network says a token's remaining life in whole seconds.
    const scheduled = await svc.sql('SELECT h.next_refresh_at FROM account_health h JOIN profiles p ON p.id = h.profile_id WHERE p.ref_id = ?', [refId]);
    const firstRenewal = Number(scheduled.rows[0]!.next_refresh_at);
    const aligned = Math.ceil((firstRenewal + 2 * HOUR) / 1000) * 1000;
    await advance(svc, aligned - consentAt, undefined, DAY);
    await advance(svc, 356 * DAY, undefined, DAY);
    assert.ok(svc.clock() < consentAt + 358 * DAY, 'still before the notice');
    const [healthy] = await profileHealth(svc, profileKey);
    assert.equal(healthy!.status, 'healthy', JSON.stringify(healthy));
    assert.equal(Date.parse(healthy!.lastRefreshedAt), svc.clock(), `renewed at every day's step: ${JSON.stringify(healthy)}`);
    assert.deepEqual(eventsOf(receiver, refId), [], 'nothing before the notice');

    await advance(svc, 3 * DAY, undefined, DAY);
    await receiver.waitFor((hook) => JSON.parse(hook.body).refId === refId && JSON.parse(hook.body).event === 'account.expiring');
    const [still] = await profileHealth(svc, profileKey);
    assert.equal(still!.status, 'healthy', 'renewing the access token still works; only the refresh token is ending');
    assert.deepEqual(
      eventsOf(receiver, refId).map((event) => [event.event, event.platform, event.expiresAt]),
      [['account.expiring', 'tiktok', refreshEnd]],
    );

    // Past the end the network refuses the refresh token: one account.needs_relink, no second account.expiring.
    await advance(svc, 6 * DAY, undefined, DAY);
    await receiver.waitFor((hook) => JSON.parse(hook.body).refId === refId && JSON.parse(hook.body).event === 'account.needs_relink');
    const [ended] = await profileHealth(svc, profileKey);
    assert.equal(ended!.status, 'needs_relink', JSON.stringify(ended));
    assert.deepEqual(
      eventsOf(receiver, refId).map((event) => [event.event, event.expiresAt ?? event.reason]),
      [
        ['account.expiring', refreshEnd],
        ['account.needs_relink', 'invalid_grant'],
      ],
    );
  });
});
