/**
 * The `scheduled` webhook: queued in the outbox when a scheduled post finishes (and `tikTokPublished` when tiktok
 * finishes processing), delivered to a real HTTPS receiver on loopback with the payload of the public API the spec
 * comes from and its headers (`X-Authorization-Timestamp`, `X-Authorization-Content-SHA256`) beside `X-Signature`.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { verifyWebhookSignature } from '../../src/webhooks/signature.js';
import type { TestService } from '../support/test-service.js';
import { linkSandboxAccounts, startPublishingService, waitForPost } from './publishing-fixtures.js';
import { startWithReceiver, closeWithReceiver } from '../webhooks/fixtures.js';
import type { WebhookReceiver } from '../support/webhook-receiver.js';

const SECRET = 'scheduled-webhook-secret';

describe('scheduled webhook', () => {
  let svc: TestService;
  let receiver: WebhookReceiver;
  before(async () => {
    ({ svc, receiver } = await startWithReceiver(startPublishingService));
    await linkSandboxAccounts(svc, ['facebook', 'tiktok', 'linkedin']);
    const registered = await svc.api('POST', '/hook/webhook', { body: { action: 'scheduled', url: receiver.url, secret: SECRET } });
    assert.equal(registered.status, 200, JSON.stringify(registered.json));
  });
  after(() => closeWithReceiver(svc, receiver));

  it('a scheduled post that publishes sends `scheduled` with its postIds, signed with both header schemes', async () => {
    const due = new Date(svc.clock() + 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const created = await svc.api('POST', '/post', { body: { post: 'Webhook me', platforms: ['facebook', 'linkedin'], scheduleDate: due } });
    assert.equal(created.json.status, 'scheduled');
    svc.clock.advance(61_000);
    const hook = await receiver.waitFor((w) => JSON.parse(w.body).id === created.json.id);
    const payload = JSON.parse(hook.body);
    assert.equal(payload.action, 'scheduled');
    assert.equal(payload.status, 'success');
    assert.equal(payload.code, 200);
    assert.equal(payload.refId, svc.primaryProfile.refId);
    assert.deepEqual(payload.errors, []);
    assert.deepEqual(payload.postIds.map((p: any) => p.platform).sort(), ['facebook', 'linkedin']);
    assert.equal(payload.subAction, undefined);
    assert.ok(verifyWebhookSignature(SECRET, hook.body, hook.headers['x-signature'] as string));
    assert.equal(hook.headers['x-authorization-content-sha256'], createHmac('sha256', SECRET).update(hook.body).digest('hex'));
    assert.match(String(hook.headers['x-authorization-timestamp']), /^\d{10}$/);
  });

  it('a scheduled post that fails sends `scheduled` with status error and the error code', async () => {
    const due = new Date(svc.clock() + 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const created = await svc.api('POST', '/post', { body: { post: 'Refused [[fault:476]]', platforms: ['facebook'], scheduleDate: due } });
    svc.clock.advance(61_000);
    const hook = await receiver.waitFor((w) => JSON.parse(w.body).id === created.json.id);
    const payload = JSON.parse(hook.body);
    assert.equal(payload.status, 'error');
    assert.equal(payload.code, 476);
    assert.equal(payload.errors[0].platform, 'facebook');
  });

  it('tiktok: `scheduled` first, then `tikTokPublished` once processing ends', async () => {
    const due = new Date(svc.clock() + 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const created = await svc.api('POST', '/post', { body: { post: 'Dance', platforms: ['tiktok'], mediaUrls: [`${svc.url}/sandbox/media/video-10s.mp4`], isVideo: true, scheduleDate: due } });
    svc.clock.advance(61_000);
    const first = await receiver.waitFor((w) => JSON.parse(w.body).id === created.json.id);
    assert.equal(JSON.parse(first.body).status, 'pending');
    svc.clock.advance(60_000);
    await waitForPost(svc, created.json.id, (post) => post.status === 'success');
    const published = await receiver.waitFor((w) => JSON.parse(w.body).id === created.json.id && JSON.parse(w.body).subAction === 'tikTokPublished');
    assert.notEqual(JSON.parse(published.body).postIds[0].id, 'pending');
    const events = receiver.received.filter((w) => JSON.parse(w.body).id === created.json.id).map((w) => JSON.parse(w.body).subAction ?? JSON.parse(w.body).status);
    assert.deepEqual(events, ['pending', 'tikTokPublished']);
  });

  it('an immediate post sends no `scheduled` webhook', async () => {
    const created = await svc.api('POST', '/post', { body: { post: 'Right now', platforms: ['facebook'] } });
    assert.equal(created.json.status, 'success');
    const { rows } = await svc.sql(`SELECT payload FROM jobs WHERE kind = 'webhook'`);
    const bodies = rows.map((row) => JSON.parse(JSON.parse(row.payload).body));
    assert.ok(bodies.some((body) => body.action === 'scheduled'), 'the earlier tests\' scheduled events are there to compare with');
    assert.ok(bodies.every((body) => body.action !== 'scheduled' || body.id !== created.json.id));
  });
});
