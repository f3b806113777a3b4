/**
 * The typed client's analytics and comments methods against the real service: answers pass the protocol schemas,
 * and a refused request surfaces as the client's error with the spec's code.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { LinkApiError } from '../../../src/client/index.js';
import type { TestService } from '../support/test-service.js';
import { linkSandboxAccounts, startPublishingService } from '../publishing/publishing-fixtures.js';
import { audienceComment, publish } from './analytics-fixtures.js';

let svc: TestService;

before(async () => {
  svc = await startPublishingService({ env: { ANALYTICS_SNAPSHOTS: 'off' } });
  await linkSandboxAccounts(svc, ['threads', 'tiktok']);
});
after(() => svc.close());

test('post analytics, account analytics, comments and a reply through the typed client', async () => {
  const { id, networkPostId } = await publish(svc, 'threads');
  svc.clock.advance(60 * 60 * 1000);
  const byService = await svc.client.getPostAnalytics(id);
  assert.equal((byService.threads as any).analytics.views, 100);
  const byNetwork = await svc.client.getPostAnalyticsByNetworkId([networkPostId], 'threads');
  assert.equal((byNetwork.threads as any)[0].analytics.likes, 9);
  const social = await svc.client.getSocialAnalytics(['threads', 'tiktok']);
  assert.equal(typeof (social.tiktok as any).analytics.followerCount, 'number');
  const commentId = await audienceComment(svc, 'threads', networkPostId, 'Hello');
  const comments = await svc.client.getComments(id);
  assert.equal((comments.threads as any)[0].commentId, commentId);
  const reply = await svc.client.replyToComment(id, { commentId, platform: 'threads', comment: 'Hi back' });
  assert.equal(reply.commentId, commentId);
  await assert.rejects(svc.client.getPostAnalyticsByNetworkId('999', 'threads'), (error: unknown) => error instanceof LinkApiError && error.code === 186);
});

test('automations and moderation through the typed client', async () => {
  const { automation } = await svc.client.createAutomation({ triggerWords: ['info'], replyText: 'Sent!', platforms: ['instagram'] });
  assert.equal((await svc.client.listAutomations()).automations.length, 1);
  assert.equal((await svc.client.pauseAutomation(automation.id, true)).automation.paused, true);
  assert.deepEqual((await svc.client.getAutomationActivity(automation.id)).activity, []);
  await svc.client.deleteAutomation(automation.id);
  assert.equal((await svc.client.validateModeration({ post: 'A calm sentence.' })).flagged, false);
  await assert.rejects(svc.client.validateModeration({ post: '' }), (error: unknown) => error instanceof LinkApiError && error.code === 438);
});

test('a post analytics history lists the stored answers oldest first', async () => {
  const { id } = await publish(svc, 'threads');
  for (let i = 0; i < 3; i++) {
    svc.clock.advance(60 * 60 * 1000);
    await svc.client.getPostAnalytics(id).catch(() => null);
  }
  const history = await svc.client.getPostAnalyticsHistory(id);
  const points = history.threads as { takenAt: string; analytics: Record<string, number> }[];
  assert.equal(points.length, 3, JSON.stringify(history));
  assert.ok(points[0]!.takenAt < points[2]!.takenAt);
  assert.ok(points[0]!.analytics.views! < points[2]!.analytics.views!);
});
