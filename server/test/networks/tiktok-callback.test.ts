/**
 * TikTok's `post.publish.publicly_available` webhook on a real service on loopback: a correctly signed callback
 * resolves the `pending` tiktok post to its public id, fires `tikTokPublished` once and runs the first comment; an
 * unsigned, wrongly signed or stale one is 401 in the envelope; a replay changes nothing. The sandbox TikTok sends
 * the callback itself once processing ends.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { tiktokSignature } from '../../src/networks/tiktok/webhook-signature.js';
import type { TestService } from '../support/test-service.js';
import type { WebhookReceiver } from '../support/webhook-receiver.js';
import { startWithReceiver, closeWithReceiver } from '../webhooks/fixtures.js';
import { startPublishingService, waitForPost } from '../publishing/publishing-fixtures.js';
import { linkSandboxAccount } from '../sandbox/sandbox-adapter-context.js';

/** The sandbox TikTok app's client secret (networks/registry.ts). */
const SANDBOX_CLIENT_SECRET = 'sandbox-secret';

describe('tiktok publish callback', () => {
  let svc: TestService;
  let receiver: WebhookReceiver;
  before(async () => {
    ({ svc, receiver } = await startWithReceiver(startPublishingService));
    await linkSandboxAccount(svc, 'tiktok');
    const registered = await svc.api('POST', '/hook/webhook', { body: { action: 'scheduled', url: receiver.url, secret: 'tiktok-callback-test' } });
    assert.equal(registered.status, 200, JSON.stringify(registered.json));
  });
  after(() => closeWithReceiver(svc, receiver));

  const createPending = async (text: string) => {
    const created = await svc.api('POST', '/post', {
      body: { post: text, platforms: ['tiktok'], mediaUrls: [`${svc.url}/sandbox/media/video-10s.mp4`], isVideo: true, tikTokOptions: { visibility: 'public' }, firstComment: { comment: `first on ${text}` } },
    });
    assert.equal(created.json.status, 'pending', JSON.stringify(created.json));
    const row = (await svc.sql("SELECT pending_state FROM post_platforms WHERE post_id = ? AND platform = 'tiktok'", [created.json.id])).rows[0];
    return { id: created.json.id as string, publishId: JSON.parse(row!.pending_state).publishId as string };
  };
  const published = async (postId: string) =>
    (await svc.sql("SELECT payload FROM jobs WHERE kind = 'webhook'")).rows
      .map((row) => JSON.parse(JSON.parse(row.payload).body))
      .filter((p) => p.action === 'scheduled' && p.id === postId && p.subAction === 'tikTokPublished');
  const callbackBody = (publishId: string, postId: string) =>
    JSON.stringify({ client_key: 'sandbox-tiktok', event: 'post.publish.publicly_available', create_time: Math.floor(svc.clock() / 1000), user_openid: 'x', content: JSON.stringify({ publish_id: publishId, post_id: postId }) });
  const send = (body: string, signature?: string) =>
    fetch(`${svc.url}/webhooks/tiktok`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...(signature !== undefined && { 'TikTok-Signature': signature }) }, body });

  it('a signed callback resolves the pending post, fires tikTokPublished once and starts the first comment; a replay changes nothing', async () => {
    const { id, publishId } = await createPending('callback resolves');
    const body = callbackBody(publishId, '7000000000000000001');
    const signature = tiktokSignature(SANDBOX_CLIENT_SECRET, Math.floor(svc.clock() / 1000), body);
    const answer = await send(body, signature);
    assert.equal(answer.status, 200);
    assert.deepEqual(await answer.json(), { status: 'success', handled: true });
    // Before any processing time passed on the clock: only the callback can have resolved it.
    const post = (await svc.api('GET', `/post/${id}`)).json;
    assert.equal(post.status, 'success', JSON.stringify(post));
    assert.equal(post.postIds[0].id, '7000000000000000001');
    assert.match(post.postIds[0].postUrl, /^https:\/\/www\.tiktok\.com\/@.+\/video\/7000000000000000001$/);
    assert.equal((await published(id)).length, 1);
    svc.clock.advance(25_000);
    const commented = await waitForPost(svc, id, (p) => p.postIds[0].firstComment?.status !== 'pending');
    // The first-comment job ran once the id was known; the sandbox video it names is the callback's post id, which
    // the sandbox does not hold (the callback here was forged with our own id), so TikTok answers "no such video".
    assert.deepEqual([commented.postIds[0].firstComment.status, commented.postIds[0].firstComment.code], ['error', 101], JSON.stringify(commented.postIds[0]));
    assert.match(commented.postIds[0].firstComment.message, /does not exist/);
    const replay = await send(body, signature);
    assert.deepEqual([replay.status, await replay.json()], [200, { status: 'success', handled: false }]);
    assert.equal((await published(id)).length, 1);
    assert.equal((await svc.api('GET', `/post/${id}`)).json.postIds[0].id, '7000000000000000001');
  });

  it('401 in the envelope for a missing, wrong, malformed or stale signature; the post stays pending', async () => {
    const { id, publishId } = await createPending('callback refused');
    const body = callbackBody(publishId, '7000000000000000002');
    const now = Math.floor(svc.clock() / 1000);
    for (const signature of [undefined, tiktokSignature('another-secret', now, body), `t=${now},s=zz`, 'garbage', tiktokSignature(SANDBOX_CLIENT_SECRET, now - 600, body), tiktokSignature(SANDBOX_CLIENT_SECRET, now, `${body} `)]) {
      const answer = await send(body, signature);
      assert.equal(answer.status, 401, String(signature));
      const envelope = (await answer.json()) as Record<string, unknown>;
      assert.deepEqual([envelope.status, envelope.action, typeof envelope.code, typeof envelope.message], ['error', 'tiktok callback', 'number', 'string'], JSON.stringify(envelope));
    }
    assert.equal((await svc.api('GET', `/post/${id}`)).json.status, 'pending');
    const notJson = 'not json';
    const bad = await send(notJson, tiktokSignature(SANDBOX_CLIENT_SECRET, now, notJson));
    assert.deepEqual([bad.status, ((await bad.json()) as { code: number }).code], [400, 101]);
    const otherEvent = JSON.stringify({ event: 'video.upload.failed', content: '{}' });
    const ignored = await send(otherEvent, tiktokSignature(SANDBOX_CLIENT_SECRET, now, otherEvent));
    assert.deepEqual([ignored.status, await ignored.json()], [200, { status: 'success', handled: false }]);
  });

  it('the sandbox TikTok sends the signed callback itself when processing ends; one tikTokPublished', async () => {
    const { id, publishId } = await createPending('sandbox calls back');
    svc.clock.advance(10_000);
    const done = await waitForPost(svc, id, (p) => p.status !== 'pending');
    assert.equal(done.status, 'success', JSON.stringify(done));
    const sent = async () => JSON.parse((await svc.sql("SELECT record FROM sandbox_posts WHERE platform = 'tiktok:publish' AND network_id = ?", [publishId])).rows[0]!.record);
    const deadline = Date.now() + 10_000;
    while ((await sent()).callbackSentAt === undefined && Date.now() < deadline) await new Promise((resolve) => setImmediate(resolve));
    const record = await sent();
    assert.equal(typeof record.callbackSentAt, 'number', 'the sandbox delivered its callback');
    assert.equal(done.postIds[0].id, record.post_id);
    assert.equal((await published(id)).length, 1);
    svc.clock.advance(25_000);
    const commented = await waitForPost(svc, id, (p) => p.postIds[0].firstComment?.status !== 'pending');
    assert.equal(commented.postIds[0].firstComment.status, 'success', JSON.stringify(commented.postIds[0]));
    const comments = (await svc.sql("SELECT c.text FROM sandbox_comments c JOIN sandbox_posts p ON p.id = c.post_id WHERE p.platform = 'tiktok' AND p.network_id = ?", [record.post_id])).rows;
    assert.deepEqual(comments.map((row) => row.text), ['first on sandbox calls back']);
  });
});
