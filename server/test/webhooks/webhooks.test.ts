/**
 * Webhook registration (spec 2.5, 4.5) and `social` webhook delivery: a real HTTPS receiver on loopback with a
 * self-signed certificate that the service trusts through WEBHOOK_CA_FILE.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { ErrorCode, type Network } from '@social-link-kit/protocol';
import { verifyWebhookSignature } from '../../src/webhooks/signature.js';
import { WEBHOOK_ACTIONS } from '@social-link-kit/protocol/webhooks.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { eventually, startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { FAST_DELIVERY, commitLinkedAccount, createProfileWithWebhook, startWithReceiver, closeWithReceiver } from './fixtures.js';
import { sealPlainWebhookSecrets } from '../../src/webhooks/webhook-secret.js';
import { linkAccount } from '../../src/linking/service.js';

describe('webhook registration', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  it('registers a webhook for the Primary Profile and answers {status, action, url, refId}', async () => {
    const { status, json } = await svc.api('POST', '/hook/webhook', {
      body: { action: 'social', url: 'https://hooks.example/social', secret: 's3cret' },
    });
    assert.equal(status, 200);
    assert.deepEqual(json, { status: 'success', action: 'social', url: 'https://hooks.example/social', refId: svc.primaryProfile.refId });
    const list = await svc.api('GET', '/hook/webhook');
    assert.equal(list.status, 200);
    assert.equal(list.json.refId, svc.primaryProfile.refId);
    assert.deepEqual(
      list.json.webhooks.map((w: Record<string, unknown>) => ({ action: w.action, url: w.url, hasSecret: w.hasSecret })),
      [{ action: 'social', url: 'https://hooks.example/social', hasSecret: true }],
    );
    assert.ok(!JSON.stringify(list.json).includes('s3cret'), 'the secret is never returned');
  });

  it('keeps one registration per action: registering again replaces it', async () => {
    await svc.api('POST', '/hook/webhook', { body: { action: 'feed', url: 'https://one.example/' } });
    await svc.api('POST', '/hook/webhook', { body: { action: 'feed', url: 'https://two.example/' } });
    const list = await svc.api('GET', '/hook/webhook');
    const feeds = list.json.webhooks.filter((w: Record<string, unknown>) => w.action === 'feed');
    assert.deepEqual(feeds.map((w: Record<string, unknown>) => [w.url, w.hasSecret]), [['https://two.example/', false]]);
  });

  it('accepts each of the nine actions', async () => {
    for (const action of WEBHOOK_ACTIONS) {
      const { status, json } = await svc.api('POST', '/hook/webhook', { body: { action, url: `https://hooks.example/${action}` } });
      assert.equal(status, 200, action);
      assert.equal(json.action, action);
    }
    const list = await svc.api('GET', '/hook/webhook');
    assert.deepEqual(list.json.webhooks.map((w: Record<string, unknown>) => w.action).sort(), [...WEBHOOK_ACTIONS].sort());
  });

  it('scopes registrations to the profile chosen by Profile-Key', async () => {
    const created = await svc.api('POST', '/profiles', { body: { title: 'Scoped' } });
    const headers = { 'Profile-Key': created.json.profileKey as string };
    const registered = await svc.api('POST', '/hook/webhook', { headers, body: { action: 'mentions', url: 'https://user.example/m' } });
    assert.equal(registered.json.refId, created.json.refId);
    const userList = await svc.api('GET', '/hook/webhook', { headers });
    assert.deepEqual(userList.json.webhooks.map((w: Record<string, unknown>) => w.url), ['https://user.example/m']);
    const primaryList = await svc.api('GET', '/hook/webhook');
    assert.ok(!primaryList.json.webhooks.some((w: Record<string, unknown>) => w.url === 'https://user.example/m'));
    const unknownProfile = await svc.api('GET', '/hook/webhook', { headers: { 'Profile-Key': 'pk_nope' } });
    assert.equal(unknownProfile.status, 404);
    assert.equal(unknownProfile.json.code, ErrorCode.profileNotFound);
  });

  it('unregisters by action; removed tells whether there was one', async () => {
    await svc.api('POST', '/hook/webhook', { body: { action: 'batch', url: 'https://hooks.example/batch' } });
    const first = await svc.api('DELETE', '/hook/webhook', { body: { action: 'batch' } });
    assert.equal(first.status, 200);
    assert.deepEqual(first.json, { status: 'success', action: 'batch', refId: svc.primaryProfile.refId, removed: true });
    const second = await svc.api('DELETE', '/hook/webhook', { body: { action: 'batch' } });
    assert.equal(second.json.removed, false);
    const list = await svc.api('GET', '/hook/webhook');
    assert.ok(!list.json.webhooks.some((w: Record<string, unknown>) => w.action === 'batch'));
  });

  const invalidBodies: [string, unknown][] = [
    ['missing action', { url: 'https://hooks.example/' }],
    ['unknown action', { action: 'posts', url: 'https://hooks.example/' }],
    ['action not a string', { action: ['social'], url: 'https://hooks.example/' }],
    ['missing url', { action: 'social' }],
    ['http url', { action: 'social', url: 'http://hooks.example/' }],
    ['upper-case scheme', { action: 'social', url: 'HTTPS://hooks.example/' }],
    ['scheme only', { action: 'social', url: 'https://' }],
    ['not a URL', { action: 'social', url: 'https://exa mple.com/' }],
    ['url not a string', { action: 'social', url: 42 }],
    ['url too long', { action: 'social', url: `https://hooks.example/${'a'.repeat(2100)}` }],
    ['secret not a string', { action: 'social', url: 'https://hooks.example/', secret: 123 }],
    ['empty secret', { action: 'social', url: 'https://hooks.example/', secret: '' }],
    ['unknown field', { action: 'social', url: 'https://hooks.example/', events: ['link'] }],
    ['credentials in the url', { action: 'social', url: 'https://user:pw@hooks.example/' }],
    ['a user name in the url', { action: 'social', url: 'https://user@hooks.example/' }],
  ];
  for (const [name, body] of invalidBodies) {
    it(`rejects ${name} with 400 code 101`, async () => {
      const { status, json } = await svc.api('POST', '/hook/webhook', { body });
      assert.equal(status, 400);
      assert.equal(json.status, 'error');
      assert.equal(json.code, ErrorCode.badRequest);
      assert.equal(json.action, 'webhook');
    });
  }

  it('lists the valid actions in details when the action is wrong (register and unregister)', async () => {
    for (const method of ['POST', 'DELETE']) {
      const { json } = await svc.api(method, '/hook/webhook', { body: { action: 'nope', url: 'https://hooks.example/' } });
      if (method === 'POST') assert.deepEqual(json.details, { validValues: [...WEBHOOK_ACTIONS] });
      else assert.equal(json.code, ErrorCode.badRequest);
    }
  });

  it('rejects a missing or wrong API key with 401 code 102', async () => {
    const response = await fetch(`${svc.url}/api/hook/webhook`, { headers: { Authorization: 'Bearer sk_wrong' } });
    assert.equal(response.status, 401);
    assert.equal(((await response.json()) as { code: number }).code, ErrorCode.apiKeyInvalid);
  });
});

describe('webhook plan gating', () => {
  it('answers 403 code 104 on the free plan, for every operation', async () => {
    const svc = await startTestService({ account: { plan: 'free' } });
    try {
      const calls: [string, unknown][] = [
        ['POST', { action: 'social', url: 'https://hooks.example/' }],
        ['GET', undefined],
        ['DELETE', { action: 'social' }],
      ];
      for (const [method, body] of calls) {
        const { status, json } = await svc.api(method, '/hook/webhook', { body });
        assert.equal(status, 403, method);
        assert.equal(json.code, ErrorCode.planRequired);
      }
    } finally {
      await svc.close();
    }
  });

  for (const plan of ['premium', 'launch', 'business', 'enterprise'] as const) {
    it(`allows the ${plan} plan`, async () => {
      const svc = await startTestService({ account: { plan } });
      try {
        const { status } = await svc.api('POST', '/hook/webhook', { body: { action: 'social', url: 'https://hooks.example/' } });
        assert.equal(status, 200);
      } finally {
        await svc.close();
      }
    });
  }
});

describe('social webhook delivery over HTTPS', () => {
  let receiver: WebhookReceiver;
  let svc: TestService;
  before(async () => {
    ({ svc, receiver } = await startWithReceiver());
  });
  after(() => closeWithReceiver(svc, receiver));

  const profileWithWebhook = (secret?: string) => createProfileWithWebhook(svc, receiver.url, secret);
  const linkThroughStorage = (profileId: string, profileKey: string, platform?: Network) => commitLinkedAccount(svc, profileId, profileKey, platform);

  const deliveriesOf = (profileId: string) => svc.storage.webhooks.listWebhookDeliveries(profileId);

  it('sends a signed `link` event when an account is linked', async () => {
    const secret = 'whsec_test_123';
    const { profile, profileKey } = await profileWithWebhook(secret);
    await linkThroughStorage(profile.id, profileKey);
    const [row] = await deliveriesOf(profile.id);
    assert.ok(row, 'an outbox row was written with the link');
    const webhook = await receiver.waitFor((w) => w.headers['x-webhook-id'] === row.id);

    assert.equal(webhook.headers['content-type'], 'application/json');
    // Computed here independently of the service's signing code.
    assert.equal(webhook.headers['x-signature'], `sha256=${createHmac('sha256', secret).update(webhook.body).digest('hex')}`);
    assert.ok(verifyWebhookSignature(secret, webhook.body, webhook.headers['x-signature'] as string), 'signature verifies');
    assert.ok(!verifyWebhookSignature('other-secret', webhook.body, webhook.headers['x-signature'] as string));
    assert.match(webhook.headers['x-webhook-timestamp'] as string, /^\d{10}$/);
    const payload = JSON.parse(webhook.body);
    assert.deepEqual(payload, {
      id: row.id,
      action: 'social',
      event: 'link',
      platform: 'twitter',
      refId: profile.refId,
      title: profile.title,
      displayName: 'Ada Lovelace',
      created: new Date(svc.clock()).toISOString(),
    });
    assert.ok(!webhook.body.includes('ENCRYPTED-PROVIDER-TOKENS'), 'no token material in the event');
    const delivered = await eventually(() => deliveriesOf(profile.id), (rows) => rows[0]?.deliveredAt !== null);
    assert.equal(delivered[0]!.attempts, 1);
  });

  it('sends an `unlink` event when DELETE /profiles/social removes an account, and none when nothing was linked', async () => {
    const { profile, profileKey } = await profileWithWebhook('k');
    await linkThroughStorage(profile.id, profileKey, 'linkedin');
    const unlinked = await svc.api('DELETE', '/profiles/social', { headers: { 'Profile-Key': profileKey }, body: { platform: 'linkedin' } });
    assert.equal(unlinked.status, 200);
    const again = await svc.api('DELETE', '/profiles/social', { headers: { 'Profile-Key': profileKey }, body: { platform: 'linkedin' } });
    assert.equal(again.status, 200);
    const rows = await deliveriesOf(profile.id);
    assert.deepEqual(rows.map((r) => JSON.parse(r.payload).event), ['link', 'unlink'], 'the second unlink removed nothing and sent nothing');
    const webhook = await receiver.waitFor((w) => w.headers['x-webhook-id'] === rows[1]!.id);
    assert.deepEqual(
      (({ event, platform, refId, displayName }) => ({ event, platform, refId, displayName }))(JSON.parse(webhook.body)),
      { event: 'unlink', platform: 'linkedin', refId: profile.refId, displayName: 'Ada Lovelace' },
    );
  });

  it('sends an `unlink` event per linked account when the profile is deleted, to that profile\'s webhook only', async () => {
    // The Primary Profile listens too: it must not receive the user profile's events.
    await svc.api('POST', '/hook/webhook', { body: { action: 'social', url: `${receiver.url}?primary` } });
    try {
      const secret = 'whsec_delete';
      const { profile, profileKey } = await profileWithWebhook(secret);
      await linkThroughStorage(profile.id, profileKey, 'twitter');
      await linkThroughStorage(profile.id, profileKey, 'linkedin');
      const deleted = await svc.api('DELETE', '/profiles', { headers: { 'Profile-Key': profileKey } });
      assert.equal(deleted.status, 200);
      assert.deepEqual(await svc.storage.linking.listSocialAccounts(profile.id), []);

      const rows = await deliveriesOf(profile.id);
      const unlinks = rows.filter((row) => JSON.parse(row.payload).event === 'unlink');
      assert.deepEqual(rows.map((row) => JSON.parse(row.payload).event), ['link', 'link', 'unlink', 'unlink']);
      assert.deepEqual(unlinks.map((row) => JSON.parse(row.payload).platform).sort(), ['linkedin', 'twitter']);
      for (const row of unlinks) {
        const webhook = await receiver.waitFor((w) => w.headers['x-webhook-id'] === row.id);
        assert.equal(webhook.path, '/hooks/social', 'sent to the deleted profile\'s own registration');
        assert.ok(verifyWebhookSignature(secret, webhook.body, webhook.headers['x-signature'] as string), 'signed with its secret');
        const payload = JSON.parse(webhook.body);
        // The same body an unlink through DELETE /profiles/social sends.
        assert.deepEqual(payload, {
          id: row.id,
          action: 'social',
          event: 'unlink',
          platform: payload.platform,
          refId: profile.refId,
          title: profile.title,
          displayName: 'Ada Lovelace',
          created: new Date(svc.clock()).toISOString(),
        });
      }
      await eventually(() => deliveriesOf(profile.id), (all) => all.every((row) => row.deliveredAt !== null));
      assert.deepEqual(await deliveriesOf(svc.primaryProfile.id), [], 'nothing queued for the Primary Profile');
      assert.ok(!receiver.received.some((w) => w.path.endsWith('?primary')));
    } finally {
      await svc.api('DELETE', '/hook/webhook', { body: { action: 'social' } });
    }
  });

  it('queues nothing when a deleted profile has no `social` webhook or no linked account', async () => {
    const created = await svc.api('POST', '/profiles', { body: { title: 'Feed only' } });
    const feedOnlyKey = created.json.profileKey as string;
    await svc.api('POST', '/hook/webhook', { headers: { 'Profile-Key': feedOnlyKey }, body: { action: 'feed', url: receiver.url } });
    const feedOnly = (await svc.storage.accounts.findProfileByRefId(created.json.refId as string))!;
    await linkThroughStorage(feedOnly.id, feedOnlyKey);
    assert.equal((await svc.api('DELETE', '/profiles', { headers: { 'Profile-Key': feedOnlyKey } })).status, 200);
    assert.deepEqual(await deliveriesOf(feedOnly.id), []);

    const nothingLinked = await profileWithWebhook('k');
    assert.equal((await svc.api('DELETE', '/profiles', { headers: { 'Profile-Key': nothingLinked.profileKey } })).status, 200);
    assert.deepEqual(await deliveriesOf(nothingLinked.profile.id), []);
  });

  it('writes no event for a profile without a `social` webhook, or when the link is refused', async () => {
    const created = await svc.api('POST', '/profiles', { body: { title: 'No hook' } });
    const profileKey = created.json.profileKey as string;
    await svc.api('POST', '/hook/webhook', { headers: { 'Profile-Key': profileKey }, body: { action: 'feed', url: receiver.url } });
    const profile = (await svc.storage.accounts.findProfileByRefId(created.json.refId as string))!;
    await linkThroughStorage(profile.id, profileKey);
    assert.deepEqual(await deliveriesOf(profile.id), []);

    const hooked = await profileWithWebhook();
    const session = await svc.api('POST', '/profiles/link-sessions', { headers: { 'Profile-Key': hooked.profileKey }, body: {} });
    await svc.api('DELETE', `/profiles/link-sessions/${session.json.sessionId}`, { headers: { 'Profile-Key': hooked.profileKey } });
    const refused = await linkAccount(svc.storage, 
      session.json.sessionId as string,
      { profileId: hooked.profile.id, platform: 'reddit', networkUserId: '1', displayName: null, username: null, tokensEncrypted: null, linkedAt: svc.clock() },
      svc.clock(),
    );
    assert.deepEqual(refused, { stored: false, reason: 'revoked' });
    assert.deepEqual(await deliveriesOf(hooked.profile.id), [], 'no event for a link that was not stored');
  });

  it('keeps the secret sealed in the database; a secret that cannot be opened is never sent unsigned', async () => {
    const secret = 'whsec_sealed_4f1c9e';
    const { profile, profileKey } = await profileWithWebhook(secret);
    const [stored] = (await svc.sql("SELECT secret FROM webhooks WHERE profile_id = ? AND action = 'social'", [profile.id])).rows;
    assert.match(stored!.secret, /^v1\./, 'a cipher envelope');
    assert.ok(!(await svc.databaseDump()).includes(secret), 'the plain secret is nowhere in the database');

    // Sealed for another registration (different additional data): the worker cannot open it.
    const other = await profileWithWebhook('whsec_other');
    const [foreign] = (await svc.sql("SELECT secret FROM webhooks WHERE profile_id = ? AND action = 'social'", [other.profile.id])).rows;
    await svc.sql("UPDATE webhooks SET secret = ? WHERE profile_id = ? AND action = 'social'", [foreign!.secret, profile.id]);
    await linkThroughStorage(profile.id, profileKey);
    const failing = await eventually(() => deliveriesOf(profile.id), (rows) => rows[0]!.attempts >= 2);
    assert.match(failing[0]!.lastError!, /secret cannot be decrypted/);
    assert.equal(failing[0]!.deliveredAt, null);
    assert.equal(receiver.received.filter((w) => w.headers['x-webhook-id'] === failing[0]!.id).length, 0, 'nothing sent');
  });

  it('seals a secret stored in plain text by an earlier version, and keeps signing with it', async () => {
    const secret = 'whsec_from_before_sealing';
    const { profile, profileKey } = await profileWithWebhook('placeholder');
    await svc.sql("UPDATE webhooks SET secret = ? WHERE profile_id = ? AND action = 'social'", [secret, profile.id]);

    // What startService runs after migrating; a second run finds nothing left to seal.
    assert.equal(await sealPlainWebhookSecrets(svc.storage, svc.tokenCipher), 1);
    assert.equal(await sealPlainWebhookSecrets(svc.storage, svc.tokenCipher), 0);
    const [stored] = (await svc.sql("SELECT secret FROM webhooks WHERE profile_id = ? AND action = 'social'", [profile.id])).rows;
    assert.match(stored!.secret, /^v1\./);

    await linkThroughStorage(profile.id, profileKey);
    const [row] = await deliveriesOf(profile.id);
    const webhook = await receiver.waitFor((w) => w.headers['x-webhook-id'] === row!.id);
    assert.ok(verifyWebhookSignature(secret, webhook.body, webhook.headers['x-signature'] as string), 'signed with the original secret');
  });

  it('sends no X-Signature header when the registration has no secret', async () => {
    const { profile, profileKey } = await profileWithWebhook();
    await linkThroughStorage(profile.id, profileKey);
    const [row] = await deliveriesOf(profile.id);
    const webhook = await receiver.waitFor((w) => w.headers['x-webhook-id'] === row!.id);
    assert.equal(webhook.headers['x-signature'], undefined);
  });

  it('retries with the same event id after the receiver answers 500', async () => {
    const { profile, profileKey } = await profileWithWebhook('k');
    receiver.setMode('error');
    try {
      await linkThroughStorage(profile.id, profileKey);
      const [row] = await deliveriesOf(profile.id);
      await receiver.waitFor((w) => w.headers['x-webhook-id'] === row!.id && w.answeredWith === 500);
      const failing = await eventually(() => deliveriesOf(profile.id), (rows) => rows[0]!.attempts >= 2);
      assert.equal(failing[0]!.deliveredAt, null);
      assert.equal(failing[0]!.lastError, 'HTTP 500');
      receiver.setMode('ok');
      await receiver.waitFor((w) => w.headers['x-webhook-id'] === row!.id && w.answeredWith === 200);
      const delivered = await eventually(() => deliveriesOf(profile.id), (rows) => rows[0]!.deliveredAt !== null);
      assert.ok(delivered[0]!.attempts >= 2);
    } finally {
      receiver.setMode('ok');
    }
  });

  it('loses nothing while the receiver is down: delivered once it is back', async () => {
    const { profile, profileKey } = await profileWithWebhook('k');
    await receiver.stop();
    try {
      await linkThroughStorage(profile.id, profileKey, 'youtube');
      const failing = await eventually(() => deliveriesOf(profile.id), (rows) => rows[0]!.attempts >= 3);
      assert.match(failing[0]!.lastError ?? '', /ECONNREFUSED/);
      assert.equal(failing[0]!.deliveredAt, null);
    } finally {
      await receiver.start();
    }
    const [row] = await deliveriesOf(profile.id);
    const webhook = await receiver.waitFor((w) => w.headers['x-webhook-id'] === row!.id);
    assert.equal(JSON.parse(webhook.body).platform, 'youtube');
    await eventually(() => deliveriesOf(profile.id), (rows) => rows[0]!.deliveredAt !== null);
  });

  it('drops pending events of a webhook that was unregistered', async () => {
    const { profile, profileKey } = await profileWithWebhook('k');
    await receiver.stop();
    try {
      await linkThroughStorage(profile.id, profileKey);
      await eventually(() => deliveriesOf(profile.id), (rows) => rows[0]!.attempts >= 1 && rows[0]!.lastError !== null);
      await svc.api('DELETE', '/hook/webhook', { headers: { 'Profile-Key': profileKey }, body: { action: 'social' } });
      const dropped = await eventually(() => deliveriesOf(profile.id), (rows) => rows[0]!.failedAt !== null);
      assert.equal(dropped[0]!.lastError, 'webhook unregistered');
    } finally {
      await receiver.start();
    }
  });
});

describe('webhook TLS verification', () => {
  it('does not deliver to a receiver whose certificate is not trusted', async () => {
    const receiver = await startWebhookReceiver();
    // No WEBHOOK_CA_FILE: the self-signed certificate must be refused. Loopback targets allowed, as above.
    const svc = await startTestService({ env: { ...FAST_DELIVERY, WEBHOOK_ALLOW_PRIVATE_TARGETS: '1' } });
    try {
      await svc.api('POST', '/hook/webhook', { body: { action: 'social', url: receiver.url } });
      const session = await svc.api('POST', '/profiles/link-sessions', { body: {} });
      await linkAccount(svc.storage, 
        session.json.sessionId as string,
        { profileId: svc.primaryProfile.id, platform: 'threads', networkUserId: '1', displayName: null, username: null, tokensEncrypted: null, linkedAt: svc.clock() },
        svc.clock(),
      );
      const rows = await eventually(() => svc.storage.webhooks.listWebhookDeliveries(svc.primaryProfile.id), (r) => r[0]?.lastError != null);
      assert.match(rows[0]!.lastError!, /certificate/i);
      assert.equal(rows[0]!.deliveredAt, null);
      assert.equal(receiver.received.length, 0);
    } finally {
      await svc.close();
      await receiver.close();
    }
  });
});
