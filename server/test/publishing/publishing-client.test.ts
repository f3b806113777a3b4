/** The typed client's posts methods against the real service: every answer passes the client's schema check. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { LinkApiError } from '../../../src/client/index.js';
import type { TestService } from '../support/test-service.js';
import { linkSandboxAccounts, startPublishingService } from './publishing-fixtures.js';

let svc: TestService;
before(async () => {
  svc = await startPublishingService();
  await linkSandboxAccounts(svc, ['facebook', 'linkedin']);
});
after(() => svc.close());

test('create, get, update, history, retry refusal and delete through the typed client', async () => {
  const now = await svc.client.createPost({ post: 'Client says hi', platforms: ['facebook', 'linkedin'] });
  assert.equal(now.status, 'success');
  assert.equal(now.postIds.length, 2);
  assert.equal((await svc.client.getPost(now.id)).status, 'success');
  await svc.client.validatePost({ post: 'Only checking', platforms: ['facebook'] });

  const later = await svc.client.createPost({ post: 'Client schedules', platforms: ['facebook'], scheduleDate: '2026-11-23T09:00:00Z' });
  assert.equal(later.status, 'scheduled');
  const paused = await svc.client.updatePost({ id: later.id, scheduledPause: true });
  assert.equal(paused.postStatus, 'paused');
  const history = await svc.client.getHistory({ platforms: ['facebook'], limit: 10 });
  assert.deepEqual(history.history.map((post) => post.id).sort(), [later.id, now.id].sort());

  await assert.rejects(svc.client.retryPost(now.id), (error: unknown) => error instanceof LinkApiError && error.code === 101);
  await assert.rejects(svc.client.createPost({ post: 'x', platforms: ['myspace'] }), (error: unknown) => error instanceof LinkApiError && error.code === 163);
  const deleted = await svc.client.deletePost({ bulk: [now.id, later.id] });
  assert.equal(deleted.status, 'success');
  assert.equal(deleted.posts.length, 2);
});
