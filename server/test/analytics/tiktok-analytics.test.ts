/**
 * tiktok's own analytics (networks/tiktok/engagement.ts) against the sandbox TikTok API of a real service on
 * loopback: video/query with the count fields (the creator's own videos only), user/info stats, TikTok's errors
 * classified; and no comments (the Display API lists none).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { PostAnalytics } from '../../src/networks/analytics-contract.js';
import { tiktokPublishAdapter as adapter } from '../../src/networks/tiktok/publish.js';
import { ENGAGEMENT_ADAPTERS } from '../../src/analytics/engagement-adapters.js';
import { startPublishingService, waitForPost } from '../publishing/publishing-fixtures.js';
import type { TestService } from '../support/test-service.js';
import { freshText, setInsightsFault } from './analytics-fixtures.js';
import { engagementContext, ok } from './engagement-context.js';

const HOUR = 60 * 60 * 1000;
let svc: TestService;
let linked: Awaited<ReturnType<typeof engagementContext>>;

before(async () => {
  svc = await startPublishingService({ env: { ANALYTICS_SNAPSHOTS: 'off' } });
  linked = await engagementContext(svc, 'tiktok');
});
after(() => svc.close());

/** Publishes a video and waits for TikTok's processing to give its post id. */
async function publishVideo(): Promise<{ id: string; networkPostId: string }> {
  const body = { post: freshText('TikTok analytics'), platforms: ['tiktok'], mediaUrls: [`${svc.url}/sandbox/media/video-3s.mp4`], isVideo: true, tikTokOptions: { visibility: 'public' } };
  const created = await svc.api('POST', '/post', { body });
  assert.equal(created.status, 200, JSON.stringify(created.json));
  svc.clock.advance(10_000);
  const done = await waitForPost(svc, created.json.id, (post) => post.status === 'success' || post.status === 'error');
  assert.equal(done.status, 'success', JSON.stringify(done));
  return { id: created.json.id, networkPostId: done.postIds[0].id };
}

describe('tiktok analytics', () => {
  test('the analytics service uses the tiktok adapter itself, which lists no comments', () => {
    // Its engagement reads are the adapter's own (PUBLISH_ADAPTERS wraps only the commit, uncertain-call.ts).
    for (const read of ['analytics', 'accountAnalytics', 'comments'] as const) assert.equal(ENGAGEMENT_ADAPTERS.tiktok[read], adapter[read], read);
    assert.equal(adapter.comments, undefined);
  });

  test("video/query gives the counts of the creator's own videos; any other id is not found", async () => {
    const { networkPostId } = await publishVideo();
    svc.clock.advance(2 * HOUR);
    const [own, missing] = ok(await adapter.analytics!(linked.ctx, [networkPostId, '7000000000000000001'])) as PostAnalytics[];
    const call = [...linked.calls].reverse().find((candidate) => candidate.path === '/sandbox/tiktok/v2/video/query/')!;
    assert.equal(call.method, 'POST');
    assert.deepEqual(JSON.parse(call.body!), { filters: { video_ids: [networkPostId, '7000000000000000001'] } });
    for (const field of ['view_count', 'like_count', 'comment_count', 'share_count']) assert.ok(call.query.get('fields')!.split(',').includes(field), field);
    assert.deepEqual([own!.found, own!.owned, missing!.found], [true, true, false]);
    assert.deepEqual(Object.keys(own!.metrics).sort(), ['commentCount', 'likeCount', 'shareCount', 'viewCount']);
    assert.ok(own!.metrics.viewCount! > 0);

    const answer = await svc.api('POST', '/analytics/post', { body: { id: networkPostId, platforms: ['tiktok'], searchPlatformId: true } });
    assert.equal(answer.status, 200, JSON.stringify(answer.json));
    assert.equal(answer.json.tiktok.analytics.viewCount, own!.metrics.viewCount);
  });

  test('creator stats come from user/info', async () => {
    const answer = ok(await adapter.accountAnalytics!(linked.ctx));
    const call = [...linked.calls].reverse().find((candidate) => candidate.path === '/sandbox/tiktok/v2/user/info/')!;
    for (const field of ['follower_count', 'following_count', 'likes_count', 'video_count']) assert.ok(call.query.get('fields')!.split(',').includes(field), field);
    assert.deepEqual(Object.keys(answer.metrics).sort(), ['followerCount', 'followingCount', 'likesCount', 'videoCount']);
  });

  test("TikTok's errors are classified: internal_error 503, rate_limit_exceeded 429, scope_not_authorized relink, a missing count is a failed metric", async () => {
    const { networkPostId } = await publishVideo();
    await setInsightsFault(svc, 'tiktok', 'down');
    const down = await adapter.analytics!(linked.ctx, [networkPostId]);
    await setInsightsFault(svc, 'tiktok', '444');
    const limited = await adapter.accountAnalytics!(linked.ctx);
    await setInsightsFault(svc, 'tiktok', '475');
    const scopes = await adapter.analytics!(linked.ctx, [networkPostId]);
    await setInsightsFault(svc, 'tiktok', 'partial');
    const partial = await adapter.accountAnalytics!(linked.ctx);
    await setInsightsFault(svc, 'tiktok', null);
    assert.deepEqual([(down as any).code, (down as any).retryAvailable], [503, true]);
    assert.deepEqual([(limited as any).code, (limited as any).retryAvailable], [429, true]);
    assert.deepEqual([(scopes as any).code, (scopes as any).relink], [401, true]);
    assert.deepEqual((partial as any).failedMetrics, ['followerCount']);
  });
});
