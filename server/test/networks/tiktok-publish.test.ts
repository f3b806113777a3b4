/**
 * The real tiktok adapter against the sandbox Content Posting API of a real service on loopback: creator info
 * first, PULL_FROM_URL init, `pending` until TikTok has processed the video (service clock), then the post id;
 * errors in TikTok's `{error: {code}}` shape; an interrupted init is reported, never sent twice.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { tiktokPublishAdapter as adapter } from '../../src/networks/tiktok/publish.js';
import type { PlatformPost, PreparedState, PublishContext, PublishDone, PublishFailure, PublishPending } from '../../src/networks/publish-adapter.js';
import type { TestService } from '../support/test-service.js';
import { startPublishingService, waitForPost } from '../publishing/publishing-fixtures.js';
import { linkSandboxAccount } from '../sandbox/sandbox-adapter-context.js';

describe('tiktok adapter against the sandbox Content Posting API', () => {
  let svc: TestService;
  let linked: Awaited<ReturnType<typeof linkSandboxAccount>>;
  let base: string;
  before(async () => {
    svc = await startPublishingService();
    linked = await linkSandboxAccount(svc, 'tiktok');
    base = `${svc.url}/sandbox/tiktok`;
  });
  after(() => svc.close());

  const context = (post: Partial<PlatformPost>): PublishContext => linked.context(base, { mediaUrls: ['https://example.com/clip.mp4'], isVideo: true, ...post });
  const videos = async (text: string) => (await svc.sql("SELECT * FROM sandbox_posts WHERE platform = 'tiktok' AND account_id = ? AND text = ?", [linked.account.accountId, text])).rows;

  it('through POST /api/post: pending with id "pending", then the post id once processed', async () => {
    const created = await svc.api('POST', '/post', { body: { post: 'tiktok clip', platforms: ['tiktok'], mediaUrls: [`${svc.url}/sandbox/media/video-10s.mp4`], isVideo: true, tikTokOptions: { visibility: 'public' } } });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    assert.equal(created.json.status, 'pending', JSON.stringify(created.json));
    assert.equal(created.json.postIds[0].id, 'pending');
    assert.equal((await videos('tiktok clip')).length, 0, 'not published while processing');
    svc.clock.advance(10_000);
    const done = await waitForPost(svc, created.json.id, (post) => post.status === 'success' || post.status === 'error');
    assert.equal(done.status, 'success', JSON.stringify(done));
    const [row] = await videos('tiktok clip');
    assert.equal(done.postIds[0].id, row!.network_id);
    assert.equal(JSON.parse(row!.record).post_info.privacy_level, 'PUBLIC_TO_EVERYONE');
    assert.match(done.postIds[0].postUrl, /^https:\/\/www\.tiktok\.com\/@.+\/video\/\d+$/);
  });

  it('processing failure → 164; rate limit → 429 with retry; revoked token → relink', async () => {
    const ctx = context({ text: 'broken [[fault:processing-failed]]' });
    const pending = (await adapter.commit(ctx, (await adapter.prepare(ctx, null)) as PreparedState)) as PublishPending;
    assert.equal(pending.kind, 'pending');
    assert.equal((await adapter.confirm(ctx, pending.state)).kind, 'pending');
    svc.clock.advance(10_000);
    const failed = (await adapter.confirm(ctx, pending.state)) as PublishFailure;
    assert.deepEqual([failed.code, failed.details?.failReason], [164, 'file_format_check_failed']);
    for (const [marker, code, retry, relink] of [['429', 429, true, false], ['401', 401, false, true]] as const) {
      const faulty = context({ text: `fault [[fault:${marker}]]` });
      const result = (await adapter.commit(faulty, (await adapter.prepare(faulty, null)) as PreparedState)) as PublishFailure;
      assert.deepEqual([result.code, result.retryAvailable, result.relink], [code, retry, relink], marker);
    }
  });

  it('validate: one video, a known visibility; reconcile never re-sends', async () => {
    const post = context({}).post;
    assert.equal(adapter.validate({ ...post, mediaUrls: [] }, linked.account)[0]?.code, 164);
    assert.equal(adapter.validate({ ...post, options: { visibility: 'everyone' } }, linked.account)[0]?.code, 101);
    const ctx = context({ text: 'interrupted tiktok' });
    const reconciled = (await adapter.reconcile(ctx, (await adapter.prepare(ctx, null)) as PreparedState)) as PublishFailure;
    assert.deepEqual([reconciled.kind, reconciled.retryAvailable, reconciled.details?.outcome], ['failed', false, 'unknown']);
    assert.equal((await videos('interrupted tiktok')).length, 0);
    const done = context({ text: 'confirmed tiktok' });
    const pending = (await adapter.commit(done, (await adapter.prepare(done, null)) as PreparedState)) as PublishPending;
    svc.clock.advance(10_000);
    assert.equal(((await adapter.confirm(done, pending.state)) as PublishDone).kind, 'done');
  });

  it('comment through the Business API once public; revoked token → relink; unknown video → 101', async () => {
    const ctx = context({ text: 'commented tiktok' });
    const pending = (await adapter.commit(ctx, (await adapter.prepare(ctx, null)) as PreparedState)) as PublishPending;
    svc.clock.advance(10_000);
    const video = (await adapter.confirm(ctx, pending.state)) as PublishDone;
    const comment = await adapter.comment!(ctx, video.id, 'nice one', []);
    assert.equal(comment.kind, 'done', JSON.stringify(comment));
    const stored = (await svc.sql("SELECT c.text FROM sandbox_comments c JOIN sandbox_posts p ON p.id = c.post_id WHERE p.platform = 'tiktok' AND p.network_id = ?", [video.id])).rows;
    assert.deepEqual(stored.map((row) => row.text), ['nice one']);
    const revoked = { ...ctx, account: { ...ctx.account, tokens: async () => ({ accessToken: 'revoked' }) } };
    const relink = (await adapter.comment!(revoked, video.id, 'again', [])) as PublishFailure;
    assert.deepEqual([relink.code, relink.relink, relink.details?.tiktokCode], [401, true, 40105]);
    const unknown = (await adapter.comment!(ctx, '7000000000000000009', 'lost', [])) as PublishFailure;
    assert.deepEqual([unknown.code, unknown.retryAvailable], [101, false]);
  });
});
