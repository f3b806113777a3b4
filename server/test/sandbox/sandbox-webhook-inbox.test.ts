/**
 * The sandbox webhook inbox, through the documented client: a profile registers its inbox address (http, loopback:
 * allowed only because it is its own inbox while the sandbox runs), links a sandbox account, and reads the delivery
 * with its headers, body and a valid Standard Webhooks signature. Private targets are NOT allowed in this service,
 * so every other http or loopback address is still refused; with the sandbox off the inbox does not exist.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LinkApiError } from '../../../src/client/index.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { eventually } from '../support/webhook-receiver.js';
import { FAST_DELIVERY } from '../webhooks/fixtures.js';

const SECRET = `whsec_${Buffer.from('sandbox inbox secret, 32 bytes!!').toString('base64')}`;

const refusedWith = (status: number, code: number) => (error: unknown) => {
  assert.ok(error instanceof LinkApiError, String(error));
  assert.equal(error.status, status);
  assert.equal(error.code, code);
  return true;
};

describe('sandbox webhook inbox', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ env: FAST_DELIVERY });
  });
  after(() => svc.close());

  it('receives a real delivery at the service’s own address and shows headers, body and a valid signature', async () => {
    const { profileKey, refId } = await svc.client.createProfile('Inbox');
    const { url } = await svc.client.sandboxWebhookInboxUrl({ profileKey });
    assert.ok(url.startsWith(`${svc.url}/sandbox/webhook-inbox/`), url);
    await svc.client.registerWebhook({ action: 'social', url, secret: SECRET }, { profileKey });
    assert.equal((await svc.api('POST', '/sandbox/accounts', { headers: { 'Profile-Key': profileKey }, body: { platform: 'linkedin' } })).status, 200);

    const inbox = await eventually(() => svc.client.readSandboxWebhookInbox({ profileKey }), (answer) => answer.deliveries.length > 0);
    assert.equal(inbox.refId, refId);
    const [delivery] = inbox.deliveries;
    assert.deepEqual(delivery!.signature, { status: 'valid', reason: null });
    assert.equal(delivery!.action, 'social');
    const body = JSON.parse(delivery!.body);
    assert.equal(body.event, 'link');
    assert.equal(delivery!.id, body.id);
    assert.match(delivery!.headers['webhook-signature']!, /^v1,/);
    assert.ok(delivery!.headers['webhook-timestamp']);
    const log = await eventually(() => svc.client.listWebhookDeliveries({}, { profileKey }), (l) => l.deliveries[0]?.status === 'delivered');
    assert.equal(log.deliveries[0]!.responseStatus, 200);
    // Another profile's inbox holds nothing of it.
    const other = await svc.client.createProfile('Other inbox');
    assert.deepEqual((await svc.client.readSandboxWebhookInbox({ profileKey: other.profileKey })).deliveries, []);
  });

  it('records a forged request as invalid, and answers 404 for an unknown key', async () => {
    const { profileKey } = await svc.client.createProfile('Forged');
    const { url } = await svc.client.sandboxWebhookInboxUrl({ profileKey });
    await svc.client.registerWebhook({ action: 'social', url, secret: SECRET }, { profileKey });
    const timestamp = String(Math.floor(Date.now() / 1000));
    const forged = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-webhook-action': 'social', 'webhook-id': 'evt_forged', 'webhook-timestamp': timestamp, 'webhook-signature': 'v1,AAAA' },
      body: '{"id":"evt_forged"}',
    });
    assert.equal(forged.status, 200);
    const [received] = (await svc.client.readSandboxWebhookInbox({ profileKey })).deliveries;
    assert.deepEqual(received!.signature, { status: 'invalid', reason: 'bad-signature' });
    const unknown = await fetch(`${svc.url}/sandbox/webhook-inbox/sbx_inbox_nope`, { method: 'POST', body: '{}' });
    assert.equal(unknown.status, 404);
    assert.equal(((await unknown.json()) as { status: string }).status, 'error');
  });

  it('accepts only the profile’s own inbox as an http or loopback target', async () => {
    const { profileKey } = await svc.client.createProfile('Refused');
    const other = await svc.client.createProfile('Owner');
    const { url: othersInbox } = await svc.client.sandboxWebhookInboxUrl({ profileKey: other.profileKey });
    const refused = [
      othersInbox,
      `${svc.url}/sandbox/webhook-inbox/sbx_inbox_unknown`,
      `${svc.url}/sandbox/feed`,
      'http://127.0.0.1:9/hooks',
      'https://127.0.0.1/hooks',
      'http://hooks.example/social',
    ];
    for (const url of refused) {
      await assert.rejects(svc.client.registerWebhook({ action: 'social', url }, { profileKey }), refusedWith(400, 101), url);
    }
  });
});

describe('sandbox webhook inbox with the sandbox off', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ env: { ...FAST_DELIVERY, SANDBOX_NETWORKS: 'off' } });
  });
  after(() => svc.close());

  it('has no inbox, and refuses an address shaped like one', async () => {
    await assert.rejects(svc.client.sandboxWebhookInboxUrl(), refusedWith(404, 101));
    const posted = await fetch(`${svc.url}/sandbox/webhook-inbox/sbx_inbox_x`, { method: 'POST', body: '{}' });
    assert.equal(posted.status, 404);
    await assert.rejects(svc.client.registerWebhook({ action: 'social', url: `${svc.url}/sandbox/webhook-inbox/sbx_inbox_x` }), refusedWith(400, 101));
  });
});
