/**
 * The delivery log API through the documented client: `listWebhookDeliveries` shows each delivery's status,
 * attempts and response codes as a real HTTPS receiver on loopback answers them; `redeliverWebhook` sends one again
 * with the same event id. Scoped to the profile; bad queries get the envelope.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LinkApiError } from '../../../src/client/index.js';
import { verifyWebhook } from '../../../src/webhooks/index.js';
import type { TestService } from '../support/test-service.js';
import { eventually, type ReceivedWebhook, type WebhookReceiver } from '../support/webhook-receiver.js';
import { startWithReceiver, closeWithReceiver } from './fixtures.js';

const SECRET = 'delivery-log secret';

describe('webhook delivery log', () => {
  let receiver: WebhookReceiver;
  let svc: TestService;
  before(async () => {
    ({ svc, receiver } = await startWithReceiver());
  });
  after(() => closeWithReceiver(svc, receiver));

  async function profileWithWebhook() {
    const { profileKey, refId } = await svc.client.createProfile('Log');
    await svc.client.registerWebhook({ action: 'social', url: receiver.url, secret: SECRET }, { profileKey });
    const mine = (webhook: ReceivedWebhook) => JSON.parse(webhook.body).refId === refId;
    return { profileKey, mine };
  }
  const linkSandboxAccount = async (profileKey: string) =>
    assert.equal((await svc.api('POST', '/sandbox/accounts', { headers: { 'Profile-Key': profileKey }, body: { platform: 'linkedin' } })).status, 200);

  it('shows failed attempts with their response codes, then the delivery, then a redelivery with the same id', async () => {
    const { profileKey, mine } = await profileWithWebhook();
    receiver.setMode('error');
    try {
      await linkSandboxAccount(profileKey);
      const failing = await eventually(
        () => svc.client.listWebhookDeliveries({ action: 'social' }, { profileKey }),
        (log) => (log.deliveries[0]?.attemptLog.length ?? 0) >= 2,
      );
      const [pending] = failing.deliveries;
      assert.equal(pending!.status, 'pending');
      assert.equal(pending!.event, 'link');
      assert.equal(pending!.responseStatus, 500);
      assert.equal(pending!.lastError, 'HTTP 500');
      assert.deepEqual(pending!.attemptLog.slice(0, 2).map((a) => [a.attempt, a.responseStatus]), [[1, 500], [2, 500]]);
    } finally {
      receiver.setMode('ok');
    }
    const delivered = await eventually(
      () => svc.client.listWebhookDeliveries({}, { profileKey }),
      (log) => log.deliveries[0]?.status === 'delivered',
    );
    const entry = delivered.deliveries[0]!;
    assert.equal(entry.responseStatus, 200);
    assert.equal(entry.attemptLog.at(-1)!.responseStatus, 200);
    assert.equal(entry.attempts, entry.attemptLog.length);
    assert.ok(entry.deliveredAt && entry.lastAttemptAt && entry.createdAt);
    assert.equal(entry.nextAttemptAt, null);
    assert.equal(JSON.parse(entry.body).id, entry.id);

    const before = receiver.received.filter(mine).length;
    const answer = await svc.client.redeliverWebhook(entry.id, { profileKey });
    assert.equal(answer.delivery.status, 'pending');
    const again = await receiver.waitFor((webhook) => mine(webhook) && receiver.received.filter(mine).length > before);
    const resent = receiver.received.filter(mine).at(-1)!;
    assert.equal(resent.headers['webhook-id'], entry.id);
    assert.equal(resent.body, entry.body);
    await verifyWebhook(again.body, again.headers, SECRET);
    const afterRedelivery = await eventually(
      () => svc.client.listWebhookDeliveries({}, { profileKey }),
      (log) => log.deliveries[0]?.status === 'delivered' && log.deliveries[0].attempts === entry.attempts + 1,
    );
    assert.equal(afterRedelivery.deliveries.length, 1, 'a redelivery is the same delivery, not a new one');
  });

  it('is scoped to the profile: another profile neither sees nor redelivers it', async () => {
    const { profileKey } = await profileWithWebhook();
    await linkSandboxAccount(profileKey);
    const log = await eventually(() => svc.client.listWebhookDeliveries({}, { profileKey }), (l) => l.deliveries.length === 1);
    const other = await svc.client.createProfile('Other');
    assert.deepEqual((await svc.client.listWebhookDeliveries({}, { profileKey: other.profileKey })).deliveries, []);
    await assert.rejects(svc.client.redeliverWebhook(log.deliveries[0]!.id, { profileKey: other.profileKey }), (error: unknown) => {
      assert.ok(error instanceof LinkApiError);
      assert.equal(error.status, 404);
      assert.equal(error.code, 101);
      return true;
    });
  });

  it('refuses a redelivery once the webhook is unregistered, and bad queries, with the envelope', async () => {
    const { profileKey } = await profileWithWebhook();
    await linkSandboxAccount(profileKey);
    const log = await eventually(() => svc.client.listWebhookDeliveries({}, { profileKey }), (l) => l.deliveries[0]?.status === 'delivered');
    await svc.client.unregisterWebhook('social', { profileKey });
    const refused = await svc.api('POST', `/hook/webhook/deliveries/${log.deliveries[0]!.id}/redeliver`, { headers: { 'Profile-Key': profileKey } });
    assert.equal(refused.status, 400);
    assert.equal(refused.json.code, 101);
    assert.equal(refused.json.status, 'error');
    for (const query of ['action=nope', 'limit=0', 'limit=x', 'webhookId=1']) {
      const bad = await svc.api('GET', `/hook/webhook/deliveries?${query}`);
      assert.equal(bad.status, 400, query);
      assert.equal(bad.json.code, 101, query);
      assert.equal(bad.json.action, 'webhook', query);
    }
  });
});
