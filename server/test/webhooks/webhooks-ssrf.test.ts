/**
 * Webhooks only go to public hosts (no SSRF into the service's own network) unless
 * WEBHOOK_ALLOW_PRIVATE_TARGETS=1. Registration refuses private, loopback, … IP literals and `localhost` names;
 * delivery resolves the hostname, refuses it when any address is not public (a failed attempt, retried), and
 * connects only to the vetted addresses while keeping the hostname for SNI and Host.
 *
 * Names that resolve to loopback come from a resolver injected into a delivery worker the test starts itself on
 * the service's storage; the service's own worker is put to sleep (a huge WEBHOOK_POLL_MS) so only that worker
 * sends.
 */
import assert from 'node:assert/strict';
import type { LookupAddress } from 'node:dns';
import { after, before, describe, it } from 'node:test';
import { ErrorCode } from '@social-link-kit/protocol';
import { startDeliveryWorker, type DeliveryWorker } from '../../src/webhooks/delivery-worker.js';
import { createHttpsSender } from '../../src/webhooks/https-sender.js';
import { systemResolveHost, type ResolveHost } from '../../src/webhooks/target-addresses.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { eventually, startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { FAST_DELIVERY, SLEEPING_SERVICE_WORKER, commitLinkedAccount, createProfileWithWebhook, fastWorkerSettings } from './fixtures.js';

const idsOf = (rows: { id: string }[]) => rows.map((row) => row.id);
const sentTo = (receiver: WebhookReceiver, ids: string[]) => receiver.received.filter((w) => ids.includes(w.headers['x-webhook-id'] as string));

describe('webhook registration refuses non-public targets', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  const refused: [string, string][] = [
    ['https://127.0.0.1/hook', 'loopback'],
    ['https://127.0.0.1:8443/hook', 'loopback'],
    ['https://[::1]/hook', 'loopback'],
    ['https://[::ffff:127.0.0.1]/hook', 'loopback'],
    ['https://2130706433/hook', 'loopback'],
    ['https://10.0.0.1/hook', 'private'],
    ['https://172.16.5.4/hook', 'private'],
    ['https://192.168.0.10:8443/hook', 'private'],
    ['https://[fd00::1]/hook', 'private'],
    ['https://169.254.169.254/latest/meta-data', 'link-local'],
    ['https://[fe80::1]/hook', 'link-local'],
    ['https://[::ffff:169.254.169.254]/hook', 'link-local'],
    ['https://100.64.0.1/hook', 'cgnat'],
    ['https://224.0.0.1/hook', 'multicast'],
    ['https://0.0.0.0/hook', 'unspecified'],
    ['https://[::]/hook', 'unspecified'],
    ['https://localhost/hook', 'loopback'],
    ['https://localhost./hook', 'loopback'],
    ['https://LocalHost:9000/hook', 'loopback'],
    ['https://hooks.localhost/hook', 'loopback'],
  ];
  for (const [url, range] of refused) {
    it(`rejects ${url} with 400 code 101 naming the url field (${range})`, async () => {
      const { status, json } = await svc.api('POST', '/hook/webhook', { body: { action: 'social', url } });
      assert.equal(status, 400);
      assert.equal(json.status, 'error');
      assert.equal(json.action, 'webhook');
      assert.equal(json.code, ErrorCode.badRequest);
      assert.match(json.message, /"url" must point to a public host/);
      assert.equal(json.details.field, 'url');
      assert.equal(json.details.range, range);
    });
  }

  it('stores nothing for a refused url', async () => {
    await svc.api('POST', '/hook/webhook', { body: { action: 'feed', url: 'https://127.0.0.1/feed' } });
    const list = await svc.api('GET', '/hook/webhook');
    assert.ok(!list.json.webhooks.some((w: Record<string, unknown>) => w.action === 'feed'));
  });

  for (const url of ['https://hooks.example/social', 'https://8.8.8.8/hook', 'https://[2606:4700:4700::1111]/hook', 'https://localhost.example/hook']) {
    it(`accepts the public target ${url}`, async () => {
      const { status, json } = await svc.api('POST', '/hook/webhook', { body: { action: 'social', url } });
      assert.equal(status, 200, JSON.stringify(json));
      assert.equal(json.url, url);
    });
  }

  it('accepts private targets when WEBHOOK_ALLOW_PRIVATE_TARGETS=1', async () => {
    const allowing = await startTestService({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: '1' } });
    try {
      for (const url of ['https://127.0.0.1:8443/hook', 'https://[::1]/hook', 'https://10.0.0.1/hook', 'https://localhost/hook']) {
        const { status } = await allowing.api('POST', '/hook/webhook', { body: { action: 'social', url } });
        assert.equal(status, 200, url);
      }
    } finally {
      await allowing.close();
    }
  });
});

describe('webhook delivery refuses non-public targets (the service worker)', () => {
  let receiver: WebhookReceiver;
  let svc: TestService;
  before(async () => {
    receiver = await startWebhookReceiver();
    // Trusts the receiver's certificate but leaves private targets refused.
    svc = await startTestService({ env: { ...FAST_DELIVERY, WEBHOOK_CA_FILE: receiver.caFile } });
  });
  after(async () => {
    await svc.close();
    await receiver.close();
  });

  // Stored directly: registrations made before the rule, or while private targets were allowed.
  for (const [host, expectedError] of [
    ['127.0.0.1', 'refused: 127.0.0.1 is not a public address (loopback)'],
    ['localhost', 'refused: localhost is not a public address (loopback)'],
    ['localhost.', 'refused: localhost. is not a public address (loopback)'],
  ]) {
    it(`records a refused attempt for ${host}, retries it with backoff, and sends nothing`, async () => {
      const created = await svc.api('POST', '/profiles', { body: { title: `Old ${host}` } });
      const profile = (await svc.storage.accounts.findProfileByRefId(created.json.refId as string))!;
      await svc.storage.webhooks.putWebhook({ profileId: profile.id, action: 'social', url: `https://${host}:${receiver.port}/hooks/social`, sealedSecret: null, createdAt: svc.clock() });
      await commitLinkedAccount(svc, profile.id, created.json.profileKey as string);
      const rows = await eventually(() => svc.storage.webhooks.listWebhookDeliveries(profile.id), (r) => r[0]!.attempts >= 2);
      assert.equal(rows[0]!.lastError, expectedError);
      assert.equal(rows[0]!.deliveredAt, null);
      assert.equal(rows[0]!.failedAt, null, 'a refusal is retried like other failures, not dropped');
      assert.deepEqual(sentTo(receiver, idsOf(rows)), []);
    });
  }

  it('the receiver itself works: the same registration on a service allowing private targets is delivered', async () => {
    const allowing = await startTestService({ env: { ...FAST_DELIVERY, ...receiver.serviceEnv } });
    try {
      await allowing.storage.webhooks.putWebhook({
        profileId: allowing.primaryProfile.id,
        action: 'social',
        url: `https://localhost:${receiver.port}/hooks/social`,
        sealedSecret: null,
        createdAt: allowing.clock(),
      });
      await commitLinkedAccount(allowing, allowing.primaryProfile.id, null);
      const [row] = await allowing.storage.webhooks.listWebhookDeliveries(allowing.primaryProfile.id);
      const webhook = await receiver.waitFor((w) => w.headers['x-webhook-id'] === row!.id);
      assert.equal(webhook.servername, 'localhost');
    } finally {
      await allowing.close();
    }
  });
});

describe('webhook delivery resolves names and refuses non-public answers (injected resolver)', () => {
  let receiver: WebhookReceiver;
  let svc: TestService;
  let worker: DeliveryWorker;
  const lookups: string[] = [];
  const answers: Record<string, LookupAddress[]> = {
    'hooks.test': [{ address: '127.0.0.1', family: 4 }],
    'mixed.test': [
      { address: '8.8.8.8', family: 4 },
      { address: '10.1.2.3', family: 4 },
    ],
    'mapped.test': [{ address: '::ffff:127.0.0.1', family: 6 }],
  };
  const resolveHost: ResolveHost = async (hostname) => {
    lookups.push(hostname);
    const found = answers[hostname];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return found;
  };

  before(async () => {
    receiver = await startWebhookReceiver();
    svc = await startTestService({ env: { ...SLEEPING_SERVICE_WORKER, WEBHOOK_CA_FILE: receiver.caFile } });
    const settings = fastWorkerSettings(svc);
    worker = startDeliveryWorker({
      storage: svc.storage,
      tokenCipher: svc.tokenCipher,
      settings,
      send: createHttpsSender({ extraCaPem: settings.extraCaPem, allowPrivateTargets: false, resolveHost }),
    });
  });
  after(async () => {
    await worker.stop();
    await svc.close();
    await receiver.close();
  });

  for (const [host, expectedError] of [
    ['hooks.test', 'refused: hooks.test resolves to 127.0.0.1, not a public address (loopback)'],
    ['mixed.test', 'refused: mixed.test resolves to 10.1.2.3, not a public address (private)'],
    ['mapped.test', 'refused: mapped.test resolves to ::ffff:127.0.0.1, not a public address (loopback)'],
    ['nowhere.test', 'DNS lookup of nowhere.test failed: ENOTFOUND'],
  ]) {
    it(`a name registered through the API is looked up at delivery: ${host} → ${expectedError}`, async () => {
      const { profile, profileKey } = await createProfileWithWebhook(svc, `https://${host}:${receiver.port}/hooks/social`);
      await commitLinkedAccount(svc, profile.id, profileKey);
      // A retry's attempt is counted when it is claimed, before its lookup: wait for both.
      const rows = await eventually(() => svc.storage.webhooks.listWebhookDeliveries(profile.id), (r) => r[0]!.attempts >= 2 && lookups.filter((name) => name === host).length >= 2);
      assert.equal(rows[0]!.lastError, expectedError);
      assert.equal(rows[0]!.deliveredAt, null);
      assert.equal(rows[0]!.failedAt, null);
      assert.ok(lookups.filter((name) => name === host).length >= 2, 'looked up again on the retry');
      assert.deepEqual(sentTo(receiver, idsOf(rows)), []);
    });
  }
});

describe('webhook delivery connects to the vetted address, with the hostname for SNI and Host', () => {
  let receiver: WebhookReceiver;
  let svc: TestService;
  let worker: DeliveryWorker;
  const lookups: string[] = [];

  before(async () => {
    receiver = await startWebhookReceiver();
    svc = await startTestService({ env: { ...SLEEPING_SERVICE_WORKER, ...receiver.serviceEnv } });
    const settings = fastWorkerSettings(svc);
    worker = startDeliveryWorker({
      storage: svc.storage,
      tokenCipher: svc.tokenCipher,
      settings,
      send: createHttpsSender({
        extraCaPem: settings.extraCaPem,
        allowPrivateTargets: true,
        resolveHost: async (hostname) => {
          lookups.push(hostname);
          return hostname === 'hooks.test' ? [{ address: '127.0.0.1', family: 4 }] : systemResolveHost(hostname);
        },
      }),
    });
  });
  after(async () => {
    await worker.stop();
    await svc.close();
    await receiver.close();
  });

  it('delivers to hooks.test, a name only the injected resolver knows', async () => {
    await assert.rejects(systemResolveHost('hooks.test'), 'the system resolver does not know the name');
    const { profile, profileKey } = await createProfileWithWebhook(svc, `https://hooks.test:${receiver.port}/hooks/social`);
    await commitLinkedAccount(svc, profile.id, profileKey);
    const [row] = await svc.storage.webhooks.listWebhookDeliveries(profile.id);
    const webhook = await receiver.waitFor((w) => w.headers['x-webhook-id'] === row!.id);
    assert.equal(webhook.headers.host, `hooks.test:${receiver.port}`);
    assert.equal(webhook.servername, 'hooks.test');
    assert.deepEqual(lookups, ['hooks.test'], 'one lookup, through the injected resolver only');
    await eventually(() => svc.storage.webhooks.listWebhookDeliveries(profile.id), (rows) => rows[0]!.deliveredAt !== null);
  });
});
