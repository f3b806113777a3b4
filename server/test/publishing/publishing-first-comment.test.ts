/**
 * The first comment's result on the post (spec 2.1, 4.9 rule 5): sent about 20 s after the post (on the service
 * clock; this service sends it at once), and the create answer waits for it: the comment's id, or its error with
 * the network's code (a fault marker in the comment makes the sandbox network refuse it). GET /api/post/:id shows
 * the same.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { TestService } from '../support/test-service.js';
import { linkSandboxAccounts, startPublishingService, waitForPost } from './publishing-fixtures.js';

let svc: TestService;
before(async () => {
  svc = await startPublishingService({ env: { PUBLISH_FIRST_COMMENT_DELAY_MS: '0' } });
  await linkSandboxAccounts(svc, ['facebook', 'linkedin']);
});
after(() => svc.close());

const entryOf = (post: Record<string, any>, platform: string) => post.postIds.find((entry: any) => entry.platform === platform);

test('the create answer carries the first comment\'s id, and so does GET /api/post/:id', async () => {
  const created = await svc.api('POST', '/post', { body: { post: 'A post with a first comment', platforms: ['facebook'], firstComment: { comment: 'First!' } } });
  assert.equal(created.status, 200, JSON.stringify(created.json));
  assert.equal(entryOf(created.json, 'facebook').firstComment.status, 'success', JSON.stringify(created.json));
  const done = await waitForPost(svc, created.json.id, (post) => entryOf(post, 'facebook')?.firstComment?.status !== 'pending');
  const comment = entryOf(done, 'facebook').firstComment;
  assert.equal(comment.status, 'success', JSON.stringify(comment));
  assert.equal(typeof comment.id, 'string');
  // facebook's comment ids are Graph ids, `{post id}_{comment id}`; the sandbox keeps the comment's own id.
  const { rows } = await svc.sql('SELECT id FROM sandbox_comments');
  assert.equal(rows.filter((row) => comment.id === row.id || comment.id.endsWith(`_${row.id}`)).length, 1);
});

test('a first comment the network refuses shows its error code and message; the post stays a success', async () => {
  const created = await svc.api('POST', '/post', { body: { post: 'Another post with a comment', platforms: ['facebook', 'linkedin'], firstComment: { comment: 'Refused [[fault:476]]' } } });
  assert.equal(created.status, 200, JSON.stringify(created.json));
  const done = await waitForPost(svc, created.json.id, (post) => entryOf(post, 'facebook')?.firstComment?.status === 'error');
  assert.equal(done.status, 'success');
  const comment = entryOf(done, 'facebook').firstComment;
  assert.equal(comment.code, 476);
  assert.match(comment.message, /.+/);
});
