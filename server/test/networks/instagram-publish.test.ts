/**
 * The real instagram adapter against the sandbox instagram Graph API of a real service on loopback: containers,
 * status polling on the service clock, carousels, reels (trial reels, audio), stories, the shared 50-per-24-h budget,
 * every instagram code the flow can meet, reconcile after an interrupted publish, comments.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ACCOUNT_STATE_RETRY_MS, instagramPublishAdapter as adapter } from '../../src/networks/instagram/publish.js';
import type { PlatformPost, PreparedState, PrepareWaiting, PublishContext, PublishDone, PublishFailure } from '../../src/networks/publish-adapter.js';
import { databaseRateBudget } from '../../src/core/rate-budget.js';
import { issueSandboxToken, sandboxStoreOf } from '@social-link-kit/sandbox/networks/sandbox-tokens.js';
import type { TestService } from '../support/test-service.js';
import { startPublishingService, waitForPost } from '../publishing/publishing-fixtures.js';
import { linkSandboxAccount } from '../sandbox/sandbox-adapter-context.js';

describe('instagram adapter against the sandbox Graph API', () => {
  let svc: TestService;
  let linked: Awaited<ReturnType<typeof linkSandboxAccount>>;
  let graph: string;
  before(async () => {
    svc = await startPublishingService();
    linked = await linkSandboxAccount(svc, 'instagram');
    graph = `${svc.url}/sandbox/instagram/v21.0`;
  });
  after(() => svc.close());

  const context = (post: Partial<PlatformPost>): PublishContext => ({ ...linked.context(graph, post), rateBudget: databaseRateBudget(svc.storage.driver, svc.clock) });
  const published = async (caption: string) =>
    (await svc.sql("SELECT * FROM sandbox_posts WHERE platform = 'instagram' AND account_id = ? AND text = ?", [linked.account.accountId, caption])).rows;
  /** Moves the service clock a second per poll until the post is finished (containers finish on that clock). */
  const advanceUntilFinished = async (id: string) => {
    for (let polls = 0; polls < 600; polls++) {
      const got = await svc.api('GET', `/post/${id}`);
      if (got.json.status === 'success' || got.json.status === 'error') return got.json;
      svc.clock.advance(1_000);
      await new Promise((resolve) => setImmediate(resolve));
    }
    return waitForPost(svc, id, (p) => p.status === 'success' || p.status === 'error');
  };
  const publish = async (body: Record<string, unknown>) => {
    const created = await svc.api('POST', '/post', { body: { platforms: ['instagram'], ...body } });
    assert.ok(created.status === 200 || created.status === 400 || created.status === 429, JSON.stringify(created.json));
    return created.json;
  };
  /** Runs prepare until it is no longer waiting, moving the clock by the adapter's own check interval. */
  const prepareUntilReady = async (ctx: PublishContext, limit = 100) => {
    let state: PreparedState | null = null;
    for (let runs = 0; runs < limit; runs++) {
      const result = await adapter.prepare(ctx, state);
      if ((result as PrepareWaiting).kind !== 'waiting') return result;
      state = (result as PrepareWaiting).state;
      svc.clock.advance((result as PrepareWaiting).checkAfterMs);
    }
    throw new Error('prepare never finished');
  };

  it('an image: one container, published once, permalink opens', async () => {
    const created = await publish({ post: 'instagram image', mediaUrls: [`${svc.url}/sandbox/media/photo.jpg`] });
    const post = await advanceUntilFinished(created.id);
    assert.equal(post.status, 'success', JSON.stringify(post));
    assert.equal((await published('instagram image')).length, 1);
    assert.equal((await fetch(post.postIds[0].postUrl)).status, 200);
  });

  it('a trial reel waits for its container on the service clock, with share_to_feed, trial_params and audio_name', async () => {
    const created = await publish({
      post: 'instagram reel',
      mediaUrls: [`${svc.url}/sandbox/media/video-10s.mp4`],
      isVideo: true,
      instagramOptions: { trialParams: { graduationStrategy: 'SS_PERFORMANCE' }, shareToFeed: true, audioName: 'Original sound' },
    });
    const post = await advanceUntilFinished(created.id);
    assert.equal(post.status, 'success', JSON.stringify(post));
    const [row] = await published('instagram reel');
    const record = JSON.parse(row!.record);
    assert.deepEqual([record.media_type, record.trial_params, record.share_to_feed, record.audio_name], ['REELS', { graduation_strategy: 'SS_PERFORMANCE' }, true, 'Original sound']);
  });

  it('a carousel of two images and a video, and a story', async () => {
    const carousel = await publish({ post: 'instagram carousel', mediaUrls: [`${svc.url}/sandbox/media/photo.jpg`, `${svc.url}/sandbox/media/photo.png`, `${svc.url}/sandbox/media/video-10s.mp4`] });
    const carouselPost = await advanceUntilFinished(carousel.id);
    assert.equal(carouselPost.status, 'success');
    const [row] = await published('instagram carousel');
    assert.ok(row, JSON.stringify([carouselPost, (await svc.sql("SELECT platform, text, status FROM sandbox_posts WHERE platform LIKE 'instagram%'")).rows]));
    assert.equal(JSON.parse(row!.media).length, 3);
    assert.equal(JSON.parse(row!.record).media_type, 'CAROUSEL');
    const story = await publish({ post: 'instagram story', mediaUrls: [`${svc.url}/sandbox/media/photo.jpg`], instagramOptions: { stories: true } });
    const storyPost = await advanceUntilFinished(story.id);
    assert.equal(storyPost.status, 'success', JSON.stringify(storyPost));
    // Stories take no caption, and instagram gets its media at the service's signed address: the story is the
    // account's post the service recorded for this post.
    const stories = await svc.sql(
      "SELECT record FROM sandbox_posts WHERE platform = 'instagram' AND account_id = ? AND network_id IN (SELECT network_post_id FROM post_platforms WHERE post_id = ?)",
      [linked.account.accountId, story.id],
    );
    assert.equal(JSON.parse(stories.rows[0]!.record).media_type, 'STORIES');
  });

  it('258 (subcode 2207085) is retried for about 50 s, then returned with retryAvailable and no automatic retry', async () => {
    const ctx = context({ text: 'state [[fault:258]]', mediaUrls: ['https://example.com/a.jpg'] });
    const started = svc.clock();
    const result = (await prepareUntilReady(ctx)) as PublishFailure;
    assert.deepEqual([result.code, result.retryAvailable, result.relink, result.noAutoRetry], [258, true, false, true]);
    assert.ok(svc.clock() - started >= ACCOUNT_STATE_RETRY_MS);
    assert.ok(svc.clock() - started <= ACCOUNT_STATE_RETRY_MS + 10_000);
  });

  it('436 when a container never finishes; 440 when it fails to ingest; 138 generic; 401 relink', async () => {
    const slow = (await prepareUntilReady(context({ text: 'slow [[fault:436]]', mediaUrls: ['https://example.com/a.mp4'], isVideo: true }), 400)) as PublishFailure;
    assert.deepEqual([slow.code, slow.retryAvailable], [436, true]);
    const ingest = (await prepareUntilReady(context({ text: 'ingest [[fault:440]]', mediaUrls: ['https://example.com/a.jpg'] }))) as PublishFailure;
    assert.deepEqual([ingest.code, ingest.retryAvailable], [440, true]);
    const generic = (await prepareUntilReady(context({ text: 'ratio [[fault:138]]', mediaUrls: ['https://example.com/a.jpg'] }))) as PublishFailure;
    assert.deepEqual([generic.code, generic.retryAvailable], [138, false]);
    const revoked = (await prepareUntilReady(context({ text: 'revoked [[fault:401]]', mediaUrls: ['https://example.com/a.jpg'] }))) as PublishFailure;
    assert.deepEqual([revoked.code, revoked.relink], [401, true]);
    const created = await publish({ post: 'through the API [[fault:138]]', mediaUrls: [`${svc.url}/sandbox/media/photo.jpg`] });
    const post = created.status === 'error' ? created : await advanceUntilFinished(created.id);
    assert.equal(post.errors[0].code, 138);
  });

  it('435: the 50 posts of a rolling 24 h are counted in the database for every instance, with Retry-After', async () => {
    const budget = `instagram:${linked.account.accountId}`;
    const used = Number((await svc.sql('SELECT COUNT(*) AS n FROM rate_budget_uses WHERE budget = ?', [budget])).rows[0]!.n);
    // What other instances published in the last hours.
    for (let i = used; i < 50; i++) {
      await svc.sql('INSERT INTO rate_budget_uses (id, budget, used_at) VALUES (?, ?, ?)', [`rbu_test_${i}`, budget, svc.clock() - 3600_000 + i]);
    }
    const before = (await svc.sql("SELECT COUNT(*) AS n FROM sandbox_posts WHERE platform = 'instagram' AND account_id = ?", [linked.account.accountId])).rows[0]!.n;
    const created = await publish({ post: 'one too many', mediaUrls: [`${svc.url}/sandbox/media/photo.jpg`] });
    const post = created.status === 'error' ? created : await advanceUntilFinished(created.id);
    const error = post.errors[0];
    assert.equal(error.code, 435, JSON.stringify(post));
    assert.equal(error.retryAvailable, true);
    assert.ok(error.details.retryAfter > 22 * 3600 && error.details.retryAfter <= 24 * 3600, String(error.details.retryAfter));
    const after = (await svc.sql("SELECT COUNT(*) AS n FROM sandbox_posts WHERE platform = 'instagram' AND account_id = ?", [linked.account.accountId])).rows[0]!.n;
    assert.equal(Number(after), Number(before), 'nothing published');
    await svc.sql('DELETE FROM rate_budget_uses WHERE budget = ?', [budget]);
  });

  it('435 from the network itself (subcode 2207042) gives the budget use back', async () => {
    const ctx = context({ text: 'network limit [[fault:435]]', mediaUrls: ['https://example.com/a.jpg'] });
    const prepared = (await prepareUntilReady(ctx)) as PreparedState;
    const result = (await adapter.commit(ctx, prepared)) as PublishFailure;
    assert.deepEqual([result.code, result.retryAvailable, result.retryAfterMs, result.details?.retryAfter], [435, true, 3_600_000, 3600]);
    const uses = await svc.sql('SELECT COUNT(*) AS n FROM rate_budget_uses WHERE budget = ?', [`instagram:${linked.account.accountId}`]);
    assert.equal(Number(uses.rows[0]!.n), 0);
  });

  it('personal accounts are refused before any container; audio options on a direct instagram login give 514', async () => {
    const personal = 'sandbox-instagram-0000-personal';
    const token = await issueSandboxToken(sandboxStoreOf(svc.storage), { platform: 'instagram', accountId: personal, kind: 'access', ttlMs: null }, svc.clock());
    const base = context({ text: 'personal', mediaUrls: ['https://example.com/a.jpg'] });
    const ctx: PublishContext = { ...base, account: { ...base.account, accountId: personal, tokens: async () => ({ accessToken: token }) } };
    const refused = (await adapter.prepare(ctx, null)) as PublishFailure;
    assert.equal(refused.code, 138);
    assert.deepEqual(refused.details, { accountType: 'PERSONAL' });
    const containers = await svc.sql("SELECT COUNT(*) AS n FROM sandbox_posts WHERE platform = 'instagram:container' AND account_id = ?", [personal]);
    assert.equal(Number(containers.rows[0]!.n), 0);

    const direct = context({ text: 'audio', mediaUrls: ['https://example.com/a.mp4'], isVideo: true, options: { audioName: 'x' } });
    const tokens = await direct.account.tokens();
    const audio = (await adapter.prepare({ ...direct, account: { ...direct.account, tokens: async () => ({ ...tokens, linkMethod: 'instagram' }) } }, null)) as PublishFailure;
    assert.equal(audio.code, 514);
  });

  it('reconcile: nothing before the publish; after an interrupted publish the container is PUBLISHED and the media is found', async () => {
    const ctx = context({ text: 'interrupted instagram publish', mediaUrls: ['https://example.com/a.jpg'] });
    const prepared = (await prepareUntilReady(ctx)) as PreparedState;
    assert.equal(await adapter.reconcile(ctx, prepared), null);
    const done = (await adapter.commit(ctx, prepared)) as PublishDone;
    assert.equal(done.kind, 'done', JSON.stringify(done));
    const found = (await adapter.reconcile(ctx, prepared)) as PublishDone;
    assert.deepEqual([found.kind, found.id], ['done', done.id]);
    assert.equal((await published('interrupted instagram publish')).length, 1);
    const again = (await adapter.commit(ctx, prepared)) as PublishFailure;
    assert.equal(again.kind, 'failed', 'a published container cannot be published twice');
    const comment = await adapter.comment!(ctx, done.id, 'first comment', []);
    assert.equal(comment.kind, 'done');
  });
});
