/**
 * Outbox retention: delivered and failed rows are deleted once they finished more than
 * WEBHOOK_OUTBOX_RETENTION_DAYS (default 7) ago; pending rows never are. Runs on whichever backend the suite
 * uses (SQLite, or PostgreSQL with TEST_DATABASE_URL).
 *
 * The worker-level test runs its own delivery worker on the service's storage with the test clock
 * (`svc.clock`), so moving the clock moves both the outcome times it records and its retention cutoff; the
 * service's own worker is put to sleep (a huge WEBHOOK_POLL_MS).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Network } from '@social-link-kit/protocol';
import type { WebhookDeliveryStatus } from '../../src/core/db/storage-types.js';
import { readWebhookSettings } from '../../src/webhooks/delivery-settings.js';
import { startDeliveryWorker, type DeliveryWorker } from '../../src/webhooks/delivery-worker.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { eventually, startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { SLEEPING_SERVICE_WORKER, commitLinkedAccount, createProfileWithWebhook, fastWorkerSettings } from './fixtures.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Links an account the way the OAuth callback commits it; returns the id of the `link` event it queued. */
async function link(svc: TestService, profileId: string, profileKey: string, platform: Network): Promise<string> {
  await commitLinkedAccount(svc, profileId, profileKey, platform);
  const rows = await svc.storage.webhooks.listWebhookDeliveries(profileId);
  const row = rows.find((r) => JSON.parse(r.payload).platform === platform && r.deliveredAt === null && r.failedAt === null);
  assert.ok(row, `an event was queued for ${platform}`);
  return row.id;
}

describe('webhook outbox retention setting', () => {
  it('defaults to 7 days and reads WEBHOOK_OUTBOX_RETENTION_DAYS', () => {
    assert.equal(readWebhookSettings({}).outboxRetentionMs, 7 * DAY_MS);
    assert.equal(readWebhookSettings({ WEBHOOK_OUTBOX_RETENTION_DAYS: '30' }).outboxRetentionMs, 30 * DAY_MS);
    assert.equal(readWebhookSettings({ WEBHOOK_OUTBOX_RETENTION_DAYS: '0.5' }).outboxRetentionMs, DAY_MS / 2);
    assert.equal(readWebhookSettings({ WEBHOOK_OUTBOX_RETENTION_DAYS: '-1' }).outboxRetentionMs, 7 * DAY_MS, 'nonsense falls back');
  });
});

describe('pruneWebhookOutbox (storage)', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ env: { ...SLEEPING_SERVICE_WORKER, WEBHOOK_ALLOW_PRIVATE_TARGETS: '1' } });
  });
  after(() => svc.close());

  it('deletes rows delivered or failed before the cutoff, keeps later ones and every pending row', async () => {
    const { profile, profileKey } = await createProfileWithWebhook(svc, 'https://127.0.0.1:9/never-called');
    const T = svc.clock();
    const cutoff = T - 7 * DAY_MS;
    const ids = {
      deliveredLongAgo: await link(svc, profile.id, profileKey, 'twitter'),
      failedLongAgo: await link(svc, profile.id, profileKey, 'linkedin'),
      deliveredAtCutoff: await link(svc, profile.id, profileKey, 'youtube'),
      failedAfterCutoff: await link(svc, profile.id, profileKey, 'reddit'),
      retrying: await link(svc, profile.id, profileKey, 'bluesky'),
      neverTried: await link(svc, profile.id, profileKey, 'threads'),
    };
    await svc.storage.webhooks.finishWebhookDelivery(ids.deliveredLongAgo, { kind: 'delivered', at: cutoff - 1 });
    await svc.storage.webhooks.finishWebhookDelivery(ids.failedLongAgo, { kind: 'failed', at: cutoff - DAY_MS, error: 'HTTP 500' });
    await svc.storage.webhooks.finishWebhookDelivery(ids.deliveredAtCutoff, { kind: 'delivered', at: cutoff });
    await svc.storage.webhooks.finishWebhookDelivery(ids.failedAfterCutoff, { kind: 'failed', at: cutoff + 1, error: 'HTTP 500' });
    await svc.storage.webhooks.finishWebhookDelivery(ids.retrying, { kind: 'retry', nextAttemptAt: cutoff - DAY_MS, error: 'HTTP 500' });

    assert.equal(await svc.storage.webhooks.pruneWebhookOutbox(cutoff), 2);
    const left = (await svc.storage.webhooks.listWebhookDeliveries(profile.id)).map((row) => row.id).sort();
    assert.deepEqual(left, [ids.deliveredAtCutoff, ids.failedAfterCutoff, ids.retrying, ids.neverTried].sort());

    // Pending rows stay whatever the cutoff, even one in the far future.
    assert.equal(await svc.storage.webhooks.pruneWebhookOutbox(T + 365 * DAY_MS), 2);
    assert.deepEqual((await svc.storage.webhooks.listWebhookDeliveries(profile.id)).map((row) => row.id).sort(), [ids.retrying, ids.neverTried].sort());
    assert.equal(await svc.storage.webhooks.pruneWebhookOutbox(T + 365 * DAY_MS), 0);
  });
});

describe('removeWebhooksOfDeletedProfiles (storage)', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ env: { ...SLEEPING_SERVICE_WORKER, WEBHOOK_ALLOW_PRIVATE_TARGETS: '1' } });
  });
  after(() => svc.close());

  it('keeps a deleted profile\'s registration while its last events are pending, then removes it', async () => {
    const deleted = await createProfileWithWebhook(svc, 'https://127.0.0.1:9/deleted');
    const living = await createProfileWithWebhook(svc, 'https://127.0.0.1:9/living');
    await link(svc, deleted.profile.id, deleted.profileKey, 'twitter');
    await svc.api('DELETE', '/profiles', { headers: { 'Profile-Key': deleted.profileKey } });
    const registrationsOf = async (profileId: string) =>
      (await svc.sql('SELECT action FROM webhooks WHERE profile_id = ?', [profileId])).rows.length;

    assert.equal(await svc.storage.webhooks.removeWebhooksOfDeletedProfiles(), 0, 'the link and unlink events are pending');
    assert.equal(await registrationsOf(deleted.profile.id), 1);
    const pending = await svc.storage.webhooks.listWebhookDeliveries(deleted.profile.id);
    assert.equal(pending.length, 2);
    await svc.storage.webhooks.finishWebhookDelivery(pending[0]!.id, { kind: 'delivered', at: svc.clock() });
    assert.equal(await svc.storage.webhooks.removeWebhooksOfDeletedProfiles(), 0, 'one event still pending');
    await svc.storage.webhooks.finishWebhookDelivery(pending[1]!.id, { kind: 'failed', at: svc.clock(), error: 'HTTP 500' });

    assert.equal(await svc.storage.webhooks.removeWebhooksOfDeletedProfiles(), 1);
    assert.equal(await registrationsOf(deleted.profile.id), 0, 'registration and its secret are gone');
    assert.equal(await registrationsOf(living.profile.id), 1, 'a living profile keeps its registration');
  });
});

describe('the delivery worker prunes the outbox on its clock', () => {
  let receiver: WebhookReceiver;
  /** Its self-signed certificate is not trusted, so every attempt to it fails and its event stays pending. */
  let untrustedReceiver: WebhookReceiver;
  let svc: TestService;
  let worker: DeliveryWorker;
  const logLines: string[] = [];

  before(async () => {
    receiver = await startWebhookReceiver();
    untrustedReceiver = await startWebhookReceiver();
    svc = await startTestService({ env: { ...SLEEPING_SERVICE_WORKER, ...receiver.serviceEnv } });
  });
  after(async () => {
    await worker?.stop();
    await svc.close();
    await receiver.close();
    await untrustedReceiver.close();
  });

  it('deletes delivered and failed rows once they are older than the retention, never pending ones', async () => {
    assert.equal(svc.config.webhooks.outboxRetentionMs, 7 * DAY_MS, 'the default retention');
    const delivered = await createProfileWithWebhook(svc, receiver.url);
    const failed = await createProfileWithWebhook(svc, receiver.url);
    const pending = await createProfileWithWebhook(svc, untrustedReceiver.url);
    const deliveredId = await link(svc, delivered.profile.id, delivered.profileKey, 'twitter');
    const failedId = await link(svc, failed.profile.id, failed.profileKey, 'twitter');
    const pendingId = await link(svc, pending.profile.id, pending.profileKey, 'twitter');
    // Unregistered before any attempt: the worker marks the event failed.
    await svc.api('DELETE', '/hook/webhook', { headers: { 'Profile-Key': failed.profileKey }, body: { action: 'social' } });

    worker = startDeliveryWorker({
      storage: svc.storage,
      tokenCipher: svc.tokenCipher,
      settings: fastWorkerSettings(svc),
      now: svc.clock,
      log: (line) => logLines.push(line),
    });
    const T0 = svc.clock();
    const rowOf = async (profileId: string, id: string) => (await svc.storage.webhooks.listWebhookDeliveries(profileId)).find((row) => row.id === id);
    const isPending = (row: WebhookDeliveryStatus | undefined) => row !== undefined && row.deliveredAt === null && row.failedAt === null;

    assert.equal((await eventually(() => rowOf(delivered.profile.id, deliveredId), (row) => row?.deliveredAt != null))!.deliveredAt, T0);
    assert.equal((await eventually(() => rowOf(failed.profile.id, failedId), (row) => row?.failedAt != null))!.failedAt, T0);
    await eventually(() => rowOf(pending.profile.id, pendingId), (row) => isPending(row) && /certificate/.test(row!.lastError ?? ''));

    /**
     * Two more events delivered one after the other: the poll that delivers the second started after the first
     * was recorded, so after the clock moved, and each poll prunes (when due) before it claims.
     */
    const deliverTwoMore = async (platforms: [Network, Network]) => {
      const ids: string[] = [];
      for (const platform of platforms) {
        const id = await link(svc, delivered.profile.id, delivered.profileKey, platform);
        await eventually(() => rowOf(delivered.profile.id, id), (row) => row?.deliveredAt != null);
        ids.push(id);
      }
      return ids;
    };

    svc.clock.advance(6 * DAY_MS);
    const sixDaysLater = await deliverTwoMore(['linkedin', 'youtube']);
    assert.ok(await rowOf(delivered.profile.id, deliveredId), 'delivered 6 days ago: kept');
    assert.ok(await rowOf(failed.profile.id, failedId), 'failed 6 days ago: kept');
    assert.ok(isPending(await rowOf(pending.profile.id, pendingId)));

    svc.clock.advance(2 * DAY_MS);
    const eightDaysLater = await deliverTwoMore(['reddit', 'bluesky']);
    assert.equal(await rowOf(delivered.profile.id, deliveredId), undefined, 'delivered 8 days ago: pruned');
    assert.equal(await rowOf(failed.profile.id, failedId), undefined, 'failed 8 days ago: pruned');
    const stillPending = await rowOf(pending.profile.id, pendingId);
    assert.ok(isPending(stillPending), 'pending for 8 days: never pruned');
    assert.ok(stillPending!.attempts >= 2, 'and still retried');
    const remaining = (await svc.storage.webhooks.listWebhookDeliveries(delivered.profile.id)).map((row) => row.id).sort();
    assert.deepEqual(remaining, [...sixDaysLater, ...eightDaysLater].sort(), 'rows finished 2 days ago or now are kept');
    assert.ok(logLines.includes('webhook worker: pruned 2 finished outbox row(s)'), logLines.join('\n'));
  });
});
