/**
 * Standard Webhooks signatures on the service's own deliveries: a real HTTPS receiver on loopback gets them, and
 * `verifyWebhook` from the npm package (src/webhooks) and the Standard Webhooks reference library both check them.
 * The events come from linking a sandbox account through the public API.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { WebhookVerificationError, verifyWebhook } from '../../../src/webhooks/index.js';
import type { TestService } from '../support/test-service.js';
import type { ReceivedWebhook, WebhookReceiver } from '../support/webhook-receiver.js';
import { startWithReceiver, closeWithReceiver } from './fixtures.js';

/** A Standard Webhooks secret: `whsec_` and base64 of 32 random bytes. */
const WHSEC = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;

describe('Standard Webhooks signatures on real deliveries', () => {
  let receiver: WebhookReceiver;
  let svc: TestService;
  before(async () => {
    ({ svc, receiver } = await startWithReceiver());
  });
  after(() => closeWithReceiver(svc, receiver));

  /** A new profile whose `social` webhook has `secret`; links a sandbox account and returns the delivery. */
  async function deliveryWith(secret: string): Promise<ReceivedWebhook> {
    const created = await svc.api('POST', '/profiles', { body: { title: 'Signed' } });
    const headers = { 'Profile-Key': created.json.profileKey as string };
    assert.equal((await svc.api('POST', '/hook/webhook', { headers, body: { action: 'social', url: receiver.url, secret } })).status, 200);
    const linked = await svc.api('POST', '/sandbox/accounts', { headers, body: { platform: 'linkedin' } });
    assert.equal(linked.status, 200, JSON.stringify(linked.json));
    return receiver.waitFor((webhook) => JSON.parse(webhook.body).refId === created.json.refId);
  }

  it('signs with a whsec_ secret: verifyWebhook and the reference library accept it, with the event id as webhook-id', async () => {
    const delivery = await deliveryWith(WHSEC);
    const event = await verifyWebhook<{ id: string; event: string }>(delivery.body, delivery.headers, WHSEC);
    assert.equal(event.event, 'link');
    assert.equal(delivery.headers['webhook-id'], event.id);
    assert.equal(delivery.headers['x-webhook-id'], event.id);
    assert.match(String(delivery.headers['webhook-signature']), /^v1,[A-Za-z0-9+/]+=*$/);
    assert.ok(delivery.headers['x-signature'], "today's headers are still sent");
    const reference = new Webhook(WHSEC).verify(delivery.body, delivery.headers as Record<string, string>) as { id: string };
    assert.equal(reference.id, event.id);
  });

  it('signs with a plain secret keyed by its UTF-8 bytes (the reference library agrees given whsec_ + base64)', async () => {
    const delivery = await deliveryWith('plain s3cret');
    await verifyWebhook(delivery.body, delivery.headers, 'plain s3cret');
    new Webhook(`whsec_${Buffer.from('plain s3cret').toString('base64')}`).verify(delivery.body, delivery.headers as Record<string, string>);
    await assert.rejects(verifyWebhook(delivery.body, delivery.headers, 'another secret'), { name: 'WebhookVerificationError', reason: 'bad-signature' });
  });

  it('refuses a changed body, a changed id, a stale or future timestamp, and missing headers', async () => {
    const delivery = await deliveryWith(WHSEC);
    const headers = delivery.headers as Record<string, string>;
    const sentAt = Number(headers['webhook-timestamp']) * 1000;
    const refused = (reason: string) => (error: unknown) => error instanceof WebhookVerificationError && error.reason === reason;
    await assert.rejects(verifyWebhook(delivery.body.replace('"link"', '"unlink"'), headers, WHSEC), refused('bad-signature'));
    await assert.rejects(verifyWebhook(delivery.body, { ...headers, 'webhook-id': 'evt_other' }, WHSEC), refused('bad-signature'));
    await assert.rejects(verifyWebhook(delivery.body, headers, WHSEC, { now: () => sentAt + 301_000 }), refused('stale'));
    await assert.rejects(verifyWebhook(delivery.body, headers, WHSEC, { now: () => sentAt - 301_000 }), refused('future'));
    await assert.rejects(verifyWebhook(delivery.body, headers, WHSEC, { now: () => sentAt + 61_000, toleranceSeconds: 60 }), refused('stale'));
    await verifyWebhook(delivery.body, headers, WHSEC, { now: () => sentAt + 299_000 });
    const { 'webhook-signature': _dropped, ...unsigned } = headers;
    await assert.rejects(verifyWebhook(delivery.body, unsigned, WHSEC), refused('missing-headers'));
    // A fetch `Headers` and raw bytes work as well (edge runtimes hand over both).
    await verifyWebhook(new TextEncoder().encode(delivery.body), new Headers(headers), WHSEC);
  });

  it('keeps one webhook-id across retries, each attempt signed with its own timestamp', async () => {
    receiver.setMode('error');
    try {
      const created = await svc.api('POST', '/profiles', { body: { title: 'Retried' } });
      const headers = { 'Profile-Key': created.json.profileKey as string };
      await svc.api('POST', '/hook/webhook', { headers, body: { action: 'social', url: receiver.url, secret: WHSEC } });
      await svc.api('POST', '/sandbox/accounts', { headers, body: { platform: 'linkedin' } });
      const mine = (webhook: ReceivedWebhook) => JSON.parse(webhook.body).refId === created.json.refId;
      await receiver.waitFor((webhook) => mine(webhook) && receiver.received.filter(mine).length >= 2);
      receiver.setMode('ok');
      await receiver.waitFor((webhook) => mine(webhook) && webhook.answeredWith === 200);
      const attempts = receiver.received.filter(mine);
      assert.ok(attempts.length >= 3);
      assert.equal(new Set(attempts.map((attempt) => attempt.headers['webhook-id'])).size, 1);
      for (const attempt of attempts) await verifyWebhook(attempt.body, attempt.headers, WHSEC);
    } finally {
      receiver.setMode('ok');
    }
  });
});
