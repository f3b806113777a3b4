/**
 * GET /api/comments/:id and replies on the real service with the sandbox networks: comments made by the
 * audience on the network come back per network; a reply lands on the network under the comment it answers.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { TestService } from '../support/test-service.js';
import { linkSandboxAccounts, startPublishingService } from '../publishing/publishing-fixtures.js';
import { audienceComment, freshText, publish } from './analytics-fixtures.js';

let svc: TestService;

before(async () => {
  svc = await startPublishingService();
  await linkSandboxAccounts(svc, ['facebook', 'twitter', 'pinterest']);
});
after(() => svc.close());

test('comments of a post from each network that lists them, and a reply where the network allows', async () => {
  const created = await svc.api('POST', '/post', { body: { post: freshText('Comment on me'), platforms: ['facebook', 'twitter', 'pinterest'], mediaUrls: [`${svc.url}/sandbox/media/photo.jpg`] } });
  assert.equal(created.json.status, 'success', JSON.stringify(created.json));
  const ids = Object.fromEntries(created.json.postIds.map((entry: any) => [entry.platform, entry.id]));
  const first = await audienceComment(svc, 'facebook', ids.facebook, 'Nice post!', 'ada');
  await audienceComment(svc, 'twitter', ids.twitter, 'Agreed', 'grace');

  const listed = await svc.api('GET', `/comments/${created.json.id}`);
  assert.equal(listed.status, 200, JSON.stringify(listed.json));
  assert.equal(listed.json.status, 'success');
  assert.deepEqual(listed.json.facebook.map((c: any) => [c.commentId, c.comment, c.author, c.replyTo]), [[first, 'Nice post!', 'ada', null]]);
  assert.equal(listed.json.twitter[0].comment, 'Agreed');
  assert.equal(listed.json.pinterest, undefined, 'pinterest has no comments API');

  svc.clock.advance(1000); // comments are listed oldest first
  const reply = await svc.api('POST', `/comments/${created.json.id}/reply`, { body: { commentId: first, platforms: ['facebook'], comment: 'Thank you!' } });
  assert.equal(reply.status, 200, JSON.stringify(reply.json));
  const after_ = await svc.api('GET', `/comments/${ids.facebook}?searchPlatformId=true&platform=facebook`);
  assert.deepEqual(after_.json.facebook.map((c: any) => [c.comment, c.replyTo]), [['Nice post!', null], ['Thank you!', first]]);
  assert.equal(after_.json.facebook[1].commentId, reply.json.id);

  const badReply = await svc.api('POST', `/comments/${created.json.id}/reply`, { body: { commentId: 'sbc_nope', platforms: ['facebook'], comment: 'Hi' } });
  assert.equal(badReply.status, 404, JSON.stringify(badReply.json));
  assert.equal(badReply.json.code, 490);
  const twoNetworks = await svc.api('POST', `/comments/${created.json.id}/reply`, { body: { commentId: first, platforms: ['facebook', 'twitter'], comment: 'Hi' } });
  assert.equal(twoNetworks.status, 400);
  assert.equal(twoNetworks.json.code, 163);
  const unknownPost = await svc.api('GET', '/comments/no-such-post');
  assert.equal(unknownPost.status, 404);
  const otherAccountsPost = await svc.api('GET', '/comments/123456789?searchPlatformId=true&platform=twitter');
  assert.equal(otherAccountsPost.status, 404);
  assert.equal(otherAccountsPost.json.code, 186);
});

test('a published post without comments lists an empty array', async () => {
  const { id } = await publish(svc, 'twitter');
  const listed = await svc.api('GET', `/comments/${id}`);
  assert.deepEqual(listed.json.twitter, []);
});

test('bluesky: the replies under a post (its first comment here) are its comments, read from the AppView', async () => {
  await linkSandboxAccounts(svc, ['bluesky']);
  const created = await svc.api('POST', '/post', { body: { post: freshText('Sky post'), platforms: ['bluesky'], firstComment: { comment: 'First reply' } } });
  assert.equal(created.json.status, 'success', JSON.stringify(created.json));
  svc.clock.advance(21_000); // the first comment goes out after the post (at once on this test service)
  let comments: any[] = [];
  for (let polls = 0; polls < 1500 && comments.length === 0; polls++) {
    comments = (await svc.api('GET', `/comments/${created.json.id}`)).json.bluesky;
    if (comments.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
  }
  assert.equal(comments.length, 1);
  assert.equal(comments[0].comment, 'First reply');
  assert.match(comments[0].commentId, /^at:\/\//);
  const unknown = await svc.api('GET', `/comments/${encodeURIComponent('at://did:plc:nobody/app.bsky.feed.post/3k')}?searchPlatformId=true&platform=bluesky`);
  assert.equal(unknown.status, 404);
  assert.equal(unknown.json.code, 186);
});
