/**
 * youtube's own analytics and comments (networks/youtube/engagement.ts) against the sandbox Data API of a real
 * service on loopback: videos.list with statistics (another channel's video: descriptive fields, not owned, and the
 * service answers zeros), channels.list statistics, commentThreads of the channel's own video, comments.insert for
 * a reply, and Google's errors classified.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { PostAnalytics } from '../../src/networks/analytics-contract.js';
import { youtubePublishAdapter as adapter } from '../../src/networks/youtube/publish.js';
import { ENGAGEMENT_ADAPTERS } from '../../src/analytics/engagement-adapters.js';
import { linkSandboxAccounts, startPublishingService } from '../publishing/publishing-fixtures.js';
import type { TestService } from '../support/test-service.js';
import { audienceComment, publish, setInsightsFault } from './analytics-fixtures.js';
import { engagementContext, ok, type RecordedCall } from './engagement-context.js';

const HOUR = 60 * 60 * 1000;
let svc: TestService;
let linked: Awaited<ReturnType<typeof engagementContext>>;
let otherProfileKey: string;

before(async () => {
  svc = await startPublishingService({ env: { ANALYTICS_SNAPSHOTS: 'off' } });
  linked = await engagementContext(svc, 'youtube');
  otherProfileKey = (await svc.api('POST', '/profiles', { body: { title: 'Another channel' } })).json.profileKey as string;
  await linkSandboxAccounts(svc, ['youtube'], otherProfileKey);
});
after(() => svc.close());

const lastCall = (path: string): RecordedCall => {
  const call = [...linked.calls].reverse().find((candidate) => candidate.path === path);
  assert.ok(call, `no call to ${path}: ${linked.calls.map((c) => c.path).join(', ')}`);
  return call;
};

describe('youtube analytics', () => {
  test('the analytics service uses the youtube adapter itself', () => {
    // Its engagement reads are the adapter's own (PUBLISH_ADAPTERS wraps only the commit, uncertain-call.ts).
    for (const read of ['analytics', 'accountAnalytics', 'comments'] as const) assert.equal(ENGAGEMENT_ADAPTERS.youtube[read], adapter[read], read);
  });

  test("videos.list gives statistics of the channel's video and the descriptive fields of another channel's public one", async () => {
    const mine = await publish(svc, 'youtube');
    const theirs = await publish(svc, 'youtube', { 'Profile-Key': otherProfileKey }, { youTubeVisibility: 'public' });
    // Another channel's private video is not listed at all, as YouTube answers (spec 4.4: 186 through the service).
    const hidden = await publish(svc, 'youtube', { 'Profile-Key': otherProfileKey });
    svc.clock.advance(3 * HOUR);
    const [own, other, missing, privateOther] = ok(await adapter.analytics!(linked.ctx, [mine.networkPostId, theirs.networkPostId, 'nosuchvideo', hidden.networkPostId])) as PostAnalytics[];
    const call = lastCall('/sandbox/youtube/youtube/v3/videos');
    assert.deepEqual(call.query.get('part')!.split(',').sort(), ['snippet', 'statistics', 'status']);
    assert.equal(call.query.get('id'), `${mine.networkPostId},${theirs.networkPostId},nosuchvideo,${hidden.networkPostId}`);
    assert.deepEqual([own!.found, own!.owned, other!.found, other!.owned, missing!.found, privateOther!.found], [true, true, true, false, false, false]);
    assert.equal(privateOther!.descriptive, undefined);
    assert.deepEqual(Object.keys(own!.metrics).sort(), ['commentCount', 'favoriteCount', 'likeCount', 'viewCount']);
    assert.ok(own!.metrics.viewCount! > 0);
    assert.match(String(other!.descriptive?.title), /Analytics on youtube/);

    const answer = await svc.api('POST', '/analytics/post', { body: { id: theirs.networkPostId, platforms: ['youtube'], searchPlatformId: true } });
    assert.equal(answer.status, 200, JSON.stringify(answer.json));
    assert.equal(answer.json.youtube.owned, false);
    assert.equal(answer.json.youtube.analytics.viewCount, 0);
    assert.equal(answer.json.youtube.analytics.channelTitle, `Sandbox channel ${await otherChannel()}`);
  });

  test('channel statistics come from channels.list mine=true', async () => {
    const answer = ok(await adapter.accountAnalytics!(linked.ctx));
    const call = lastCall('/sandbox/youtube/youtube/v3/channels');
    assert.deepEqual([call.query.get('part'), call.query.get('mine')], ['statistics', 'true']);
    assert.deepEqual(Object.keys(answer.metrics).sort(), ['subscriberCount', 'videoCount', 'viewCount']);
  });

  test("Google's errors are classified: backendError 503 (recoverable), quotaExceeded 429 with its wait, a hidden statistic is a failed metric", async () => {
    const { networkPostId } = await publish(svc, 'youtube');
    await setInsightsFault(svc, 'youtube', 'down');
    const down = await adapter.analytics!(linked.ctx, [networkPostId]);
    await setInsightsFault(svc, 'youtube', '444');
    const quota = await adapter.accountAnalytics!(linked.ctx);
    await setInsightsFault(svc, 'youtube', 'partial');
    const partial = await adapter.analytics!(linked.ctx, [networkPostId]);
    const hidden = await adapter.accountAnalytics!(linked.ctx);
    await setInsightsFault(svc, 'youtube', null);
    assert.deepEqual([(down as any).code, (down as any).retryAvailable], [503, true]);
    assert.deepEqual([(quota as any).code, (quota as any).retryAvailable], [429, true]);
    assert.deepEqual((partial as PostAnalytics[])[0]!.failedMetrics, ['viewCount']);
    assert.deepEqual((hidden as any).failedMetrics, ['subscriberCount']);
  });
});

async function otherChannel(): Promise<string> {
  const { rows } = await svc.sql("SELECT s.network_user_id FROM social_accounts s JOIN profiles p ON p.id = s.profile_id WHERE s.platform = 'youtube' AND p.title = ?", ['Another channel']);
  return rows[0]!.network_user_id as string;
}

describe('youtube comments', () => {
  test('commentThreads of the own video, a reply through comments.insert nested under its thread, 490 and 186', async () => {
    const { networkPostId } = await publish(svc, 'youtube');
    const theirs = await publish(svc, 'youtube', { 'Profile-Key': otherProfileKey });
    const commentId = await audienceComment(svc, 'youtube', networkPostId, 'Great video', 'ada');
    svc.clock.advance(1000);
    const reply = ok(await adapter.reply!(linked.ctx, networkPostId, commentId, 'Thank you'));
    const inserted = lastCall('/sandbox/youtube/youtube/v3/comments');
    assert.equal(inserted.method, 'POST');
    assert.deepEqual(JSON.parse(inserted.body!), { snippet: { parentId: commentId, textOriginal: 'Thank you' } });

    const comments = ok(await adapter.comments!(linked.ctx, networkPostId));
    assert.equal(lastCall('/sandbox/youtube/youtube/v3/commentThreads').query.get('videoId'), networkPostId);
    assert.deepEqual(comments.map((c) => [c.id, c.text, c.author, c.replyTo]), [
      [commentId, 'Great video', 'ada', null],
      [reply.id, 'Thank you', `Sandbox channel ${linked.accountId}`, commentId],
    ]);
    assert.equal((await adapter.reply!(linked.ctx, networkPostId, 'sbc_nope', 'Hi') as any).code, 490);
    assert.equal((await adapter.comments!(linked.ctx, theirs.networkPostId) as any).code, 186);
  });
});
