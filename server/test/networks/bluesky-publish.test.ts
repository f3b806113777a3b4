/**
 * The real bluesky adapter against the sandbox PDS of a real service on loopback: XRPC createRecord with the
 * attempt's record key, uploadBlob, facets, reconcile by getRecord, a second commit meeting "already exists",
 * session refresh with rotation, faults classified, delete and reply.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { blueskyPublishAdapter as adapter, recordKeyFor } from '../../src/networks/bluesky/publish.js';
import type { PreparedState, PublishDone, PublishFailure } from '../../src/networks/publish-adapter.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { linkSandboxAccount, startMediaHost } from '../sandbox/sandbox-adapter-context.js';

describe('bluesky adapter against the sandbox PDS', () => {
  let svc: TestService;
  let media: Awaited<ReturnType<typeof startMediaHost>>;
  let linked: Awaited<ReturnType<typeof linkSandboxAccount>>;
  let pds: string;
  before(async () => {
    svc = await startTestService();
    media = await startMediaHost();
    linked = await linkSandboxAccount(svc, 'bluesky');
    pds = `${svc.url}/sandbox`;
  });
  after(async () => {
    await media.close();
    await svc.close();
  });

  const publish = async (text: string, extra: { mediaUrls?: string[]; attemptKey?: string } = {}) => {
    const ctx = linked.context(pds, { text, ...extra });
    const prepared = await adapter.prepare(ctx, null);
    assert.notEqual((prepared as PublishFailure).kind, 'failed', JSON.stringify(prepared));
    return { ctx, prepared: prepared as PreparedState, result: await adapter.commit(ctx, prepared as PreparedState) };
  };

  it('publishes a post with a link facet and an image, under the record key derived from the attempt', async () => {
    const text = 'Grüße from the sandbox: https://example.com/a. #launch';
    const { prepared, result } = await publish(text, { mediaUrls: [`${media.url}/tiny.png`], attemptKey: 'post_a:bluesky:1' });
    assert.equal(result.kind, 'done', JSON.stringify(result));
    const done = result as PublishDone;
    assert.equal(prepared.rkey, recordKeyFor('post_a:bluesky:1', svc.clock()));
    assert.equal(done.id, `at://${linked.account.accountId}/app.bsky.feed.post/${prepared.rkey}`);
    assert.ok(done.postUrl.startsWith(`${pds}/profile/`));
    const record = await fetch(`${pds}/xrpc/com.atproto.repo.getRecord?repo=${linked.account.accountId}&collection=app.bsky.feed.post&rkey=${prepared.rkey}`);
    const value = ((await record.json()) as { value: Record<string, any> }).value;
    assert.equal(value.text, text);
    const link = value.facets.find((facet: any) => facet.features[0].$type === 'app.bsky.richtext.facet#link');
    // UTF-8 byte offsets: "Grüße" has two 2-byte letters.
    assert.equal(Buffer.from(text).subarray(link.index.byteStart, link.index.byteEnd).toString(), 'https://example.com/a');
    assert.equal(value.embed.$type, 'app.bsky.embed.images');
    assert.equal(value.embed.images.length, 1);
    const blob = await fetch(`${pds}/xrpc/com.atproto.sync.getBlob?did=${linked.account.accountId}&cid=${value.embed.images[0].image.ref.$link}`);
    assert.equal(blob.status, 200);
    assert.equal(blob.headers.get('content-type'), 'image/png');
  });

  it('a second commit of the same attempt does not post twice: the PDS refuses the rkey and the adapter finds the post', async () => {
    const { ctx, prepared, result } = await publish('exactly once', { attemptKey: 'post_b:bluesky:1' });
    assert.equal(result.kind, 'done');
    const again = await adapter.commit(ctx, prepared);
    assert.equal(again.kind, 'done');
    assert.equal((again as PublishDone).id, (result as PublishDone).id);
    const rows = await svc.sql("SELECT COUNT(*) AS n FROM sandbox_posts WHERE platform = 'bluesky' AND text = 'exactly once'");
    assert.equal(Number(rows.rows[0]!.n), 1);
  });

  it('reconcile is a getRecord: finds a committed post, and null when the commit never happened', async () => {
    const { ctx, prepared, result } = await publish('reconcile me', { attemptKey: 'post_c:bluesky:1' });
    const found = await adapter.reconcile(ctx, prepared);
    assert.deepEqual(found, result);
    const neverCommitted = linked.context(pds, { text: 'never sent', attemptKey: 'post_d:bluesky:1' });
    const preparedOnly = await adapter.prepare(neverCommitted, null);
    assert.equal(await adapter.reconcile(neverCommitted, preparedOnly as PreparedState), null);
  });

  it('refreshes an expired session with refreshSession, saves the rotated tokens, and the old refresh token is spent', async () => {
    const before = linked.tokens();
    svc.clock.advance(3 * 60 * 60_000);
    const { result } = await publish('after the access token expired', { attemptKey: 'post_e:bluesky:1' });
    assert.equal(result.kind, 'done', JSON.stringify(result));
    const after = linked.tokens();
    assert.notEqual(after.accessJwt, before.accessJwt);
    assert.notEqual(after.refreshJwt, before.refreshJwt);
    assert.ok(typeof after.refreshJwt === 'string' && after.refreshJwt.length > 20);
    assert.ok(linked.saved.length >= 1);
    const replay = await fetch(`${pds}/xrpc/com.atproto.server.refreshSession`, { method: 'POST', headers: { Authorization: `Bearer ${before.refreshJwt}` } });
    assert.equal(replay.status, 400);
  });

  it('a refresh token that was already spent (its answer lost) means relink, and nothing is posted', async () => {
    const other = await linkSandboxAccount(svc, 'bluesky');
    // Someone refreshed with the stored token and the new pair never came back: the stored one is now spent.
    const lost = await fetch(`${pds}/xrpc/com.atproto.server.refreshSession`, { method: 'POST', headers: { Authorization: `Bearer ${other.tokens().refreshJwt}` } });
    assert.equal(lost.status, 200);
    const ctx = other.context(pds, { text: 'never posted', attemptKey: 'post_g:bluesky:1' });
    svc.clock.advance(3 * 60 * 60_000);
    const result = (await adapter.prepare(ctx, null)) as PublishFailure;
    assert.deepEqual([result.kind, result.code, result.relink, result.retryAvailable], ['failed', 401, true, false]);
    const rows = await svc.sql("SELECT COUNT(*) AS n FROM sandbox_posts WHERE text = 'never posted'");
    assert.equal(Number(rows.rows[0]!.n), 0);
  });

  it('the PDS refuses a blob over 1,000,000 bytes with BlobTooLarge', async () => {
    const fresh = await linkSandboxAccount(svc, 'bluesky');
    const upload = await fetch(`${pds}/xrpc/com.atproto.repo.uploadBlob`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${fresh.tokens().accessJwt}`, 'Content-Type': 'image/png' },
      body: new Uint8Array(1_000_001),
    });
    assert.equal(upload.status, 400);
    assert.equal(((await upload.json()) as { error: string }).error, 'BlobTooLarge');
  });

  it('classifies fault markers and refusals to spec terms', async () => {
    const rate = (await publish('slow down [[fault:429]]')).result as PublishFailure;
    assert.equal(rate.kind, 'failed');
    assert.equal(rate.code, 429);
    assert.equal(rate.retryAvailable, true);
    assert.ok((rate.retryAfterMs ?? 0) > 0);
    const server = (await publish('oops [[fault:502]]')).result as PublishFailure;
    assert.deepEqual([server.code, server.retryAvailable, server.relink], [502, true, false]);
    const revoked = (await publish('revoked [[fault:401]]')).result as PublishFailure;
    assert.deepEqual([revoked.code, revoked.retryAvailable, revoked.relink], [401, false, true]);
    const tooBig = await adapter.prepare(linked.context(pds, { text: 'big', mediaUrls: [`${media.url}/big.png`] }), null);
    assert.equal((tooBig as PublishFailure).code, 164);
  });

  it('validate counts graphemes (300) and refuses a video with an image and a fifth image', () => {
    const post = linked.context(pds).post;
    assert.deepEqual(adapter.validate({ ...post, text: 'e\u0301'.repeat(300) }, linked.account), []);
    assert.equal(adapter.validate({ ...post, text: 'a'.repeat(301) }, linked.account)[0]?.code, 101);
    assert.equal(adapter.validate({ ...post, isVideo: true, mediaUrls: ['https://x/v.mp4', 'https://x/a.png'] }, linked.account).length, 1);
    assert.equal(adapter.validate({ ...post, mediaUrls: ['1', '2', '3', '4', '5'] }, linked.account).length, 1);
  });

  it('the PDS refuses a record over 300 graphemes and a blob it never received', async () => {
    const token = linked.tokens().accessJwt as string;
    const create = (record: unknown) =>
      fetch(`${pds}/xrpc/com.atproto.repo.createRecord`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ repo: linked.account.accountId, collection: 'app.bsky.feed.post', record }),
      });
    const long = await create({ $type: 'app.bsky.feed.post', text: 'x'.repeat(301), createdAt: new Date().toISOString() });
    assert.equal(long.status, 400);
    assert.equal(((await long.json()) as { error: string }).error, 'InvalidRequest');
    const ghost = await create({
      $type: 'app.bsky.feed.post',
      text: 'ghost',
      createdAt: new Date().toISOString(),
      embed: { $type: 'app.bsky.embed.images', images: [{ alt: '', image: { $type: 'blob', ref: { $link: 'bafkreinothere' }, mimeType: 'image/png', size: 1 } }] },
    });
    assert.equal(ghost.status, 400);
    const noAuth = await fetch(`${pds}/xrpc/com.atproto.repo.createRecord`, { method: 'POST', body: '{}', headers: { 'Content-Type': 'application/json' } });
    assert.equal(noAuth.status, 401);
  });

  it('a repeated comment call, later, does not reply twice: the reply key is fixed by the post, the PDS refuses it again', async () => {
    const { ctx, result } = await publish('with one reply', { attemptKey: 'post_g:bluesky:1' });
    const postId = (result as PublishDone).id;
    const first = await adapter.comment!(ctx, postId, 'the only reply', []);
    assert.equal(first.kind, 'done', JSON.stringify(first));
    // The answer was lost and the comment job runs again a minute later.
    svc.clock.advance(60_000);
    const again = await adapter.comment!(ctx, postId, 'the only reply', []);
    assert.equal(again.kind, 'done', JSON.stringify(again));
    assert.equal((again as PublishDone).id, (first as PublishDone).id);
    const rows = await svc.sql("SELECT COUNT(*) AS n FROM sandbox_posts WHERE platform = 'bluesky' AND text = 'the only reply'");
    assert.equal(Number(rows.rows[0]!.n), 1);
  });

  it('replies as a comment and deletes the post', async () => {
    const { ctx, result } = await publish('with a reply', { attemptKey: 'post_f:bluesky:1' });
    const postId = (result as PublishDone).id;
    const reply = await adapter.comment!(ctx, postId, 'first comment', []);
    assert.equal(reply.kind, 'done', JSON.stringify(reply));
    const rows = await svc.sql("SELECT record FROM sandbox_posts WHERE platform = 'bluesky' AND text = 'first comment'");
    assert.equal(JSON.parse(rows.rows[0]!.record).value.reply.parent.uri, postId);
    assert.equal(await adapter.remove!(ctx, postId), true);
    const rkey = postId.split('/').pop();
    const gone = await fetch(`${pds}/xrpc/com.atproto.repo.getRecord?repo=${linked.account.accountId}&collection=app.bsky.feed.post&rkey=${rkey}`);
    assert.equal(gone.status, 400);
  });
});
