/**
 * twitter's own analytics and comments (networks/twitter/engagement.ts) against the sandbox X API of a real service
 * on loopback: the X paths read (GET /2/tweets with the metric fields, GET /2/users/:id, conversation search, a reply
 * tweet), the thread-members rule of spec 4.4 (a thread's stored id reads its first tweet only; each member needs its
 * own id), and X's errors classified.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { PostAnalytics } from '../../src/networks/analytics-contract.js';
import { twitterPublishAdapter as adapter } from '../../src/networks/twitter/publish.js';
import { ENGAGEMENT_ADAPTERS } from '../../src/analytics/engagement-adapters.js';
import { linkSandboxAccounts, startPublishingService } from '../publishing/publishing-fixtures.js';
import type { TestService } from '../support/test-service.js';
import { audienceComment, freshText, publish, setInsightsFault } from './analytics-fixtures.js';
import { engagementContext, ok, type RecordedCall } from './engagement-context.js';

const HOUR = 60 * 60 * 1000;
let svc: TestService;
let linked: Awaited<ReturnType<typeof engagementContext>>;

before(async () => {
  svc = await startPublishingService({ env: { ANALYTICS_SNAPSHOTS: 'off' } });
  linked = await engagementContext(svc, 'twitter');
});
after(() => svc.close());

const lastCall = (path: string): RecordedCall => {
  const call = [...linked.calls].reverse().find((candidate) => candidate.path === path);
  assert.ok(call, `no call to ${path}: ${linked.calls.map((c) => c.path).join(', ')}`);
  return call;
};

describe('twitter analytics', () => {
  test('the analytics service uses the twitter adapter itself, not the generic sandbox API', () => {
    // Its engagement reads are the adapter's own (PUBLISH_ADAPTERS wraps only the commit, uncertain-call.ts).
    for (const read of ['analytics', 'accountAnalytics', 'comments'] as const) assert.equal(ENGAGEMENT_ADAPTERS.twitter[read], adapter[read], read);
  });

  test('post metrics come from GET /2/tweets with the public, non-public and organic fields, and grow with the clock', async () => {
    const { networkPostId } = await publish(svc, 'twitter');
    svc.clock.advance(2 * HOUR);
    const [first] = ok(await adapter.analytics!(linked.ctx, [networkPostId])) as PostAnalytics[];
    const call = lastCall('/sandbox/twitter/2/tweets');
    assert.equal(call.query.get('ids'), networkPostId);
    assert.deepEqual(call.query.get('tweet.fields')!.split(',').sort(), ['author_id', 'non_public_metrics', 'organic_metrics', 'public_metrics']);
    assert.equal(first!.found, true);
    assert.equal(first!.owned, true);
    assert.deepEqual(Object.keys(first!.metrics).sort(), ['bookmarkCount', 'impressionCount', 'likeCount', 'quoteCount', 'replyCount', 'retweetCount', 'urlLinkClicks', 'userProfileClicks']);
    assert.deepEqual(first!.failedMetrics, []);
    svc.clock.advance(HOUR);
    const [later] = ok(await adapter.analytics!(linked.ctx, [networkPostId])) as PostAnalytics[];
    assert.ok(later!.metrics.impressionCount! > first!.metrics.impressionCount!);
  });

  test('thread members only when each id is given: the stored thread id reads its first tweet, never the members', async () => {
    const long = Array.from({ length: 50 }, (_, i) => `part${i} sentence`).join(' ') + ` ${freshText('thread')}`;
    const created = await svc.api('POST', '/post', { body: { post: long, platforms: ['twitter'] } });
    assert.equal(created.json.status, 'success', JSON.stringify(created.json));
    const threadId = created.json.postIds[0].id as string;
    const [parent, ...members] = threadId.split(',');
    assert.ok(members.length >= 2, threadId);
    svc.clock.advance(HOUR);

    const [whole] = ok(await adapter.analytics!(linked.ctx, [threadId])) as PostAnalytics[];
    assert.equal(lastCall('/sandbox/twitter/2/tweets').query.get('ids'), parent, 'only the first tweet is asked for');
    const byService = await svc.api('POST', '/analytics/post', { body: { id: created.json.id, platforms: ['twitter'] } });
    assert.equal(byService.status, 200, JSON.stringify(byService.json));
    const parentOnly = await svc.api('POST', '/analytics/post', { body: { id: parent, platforms: ['twitter'], searchPlatformId: true } });
    // Summing the members in would triple every count.
    assert.equal(byService.json.twitter.analytics.impressionCount, parentOnly.json.twitter.analytics.impressionCount);
    assert.equal(whole!.metrics.impressionCount, parentOnly.json.twitter.analytics.impressionCount);

    const each = await svc.api('POST', '/analytics/post', { body: { postIds: [parent, ...members], platforms: ['twitter'], searchPlatformId: true } });
    assert.equal(each.json.status, 'success', JSON.stringify(each.json));
    assert.deepEqual(each.json.twitter.map((entry: any) => entry.id), [parent, ...members]);
    for (const entry of each.json.twitter) assert.equal(typeof entry.analytics.impressionCount, 'number');
  });

  test('account metrics come from GET /2/users/:id with public_metrics', async () => {
    const answer = ok(await adapter.accountAnalytics!(linked.ctx));
    const call = lastCall(`/sandbox/twitter/2/users/${linked.accountId}`);
    assert.equal(call.query.get('user.fields'), 'public_metrics');
    assert.deepEqual(Object.keys(answer.metrics).sort(), ['followersCount', 'followingCount', 'listedCount', 'tweetCount']);
  });

  test("X's errors are classified: no app 419, down 503 (recoverable), rate limit 364 with its wait, a missing metric is a failed metric", async () => {
    const { networkPostId } = await publish(svc, 'twitter');
    const noApp = await adapter.analytics!({ ...linked.ctx, appCredentials: async () => null }, [networkPostId]);
    assert.equal((noApp as any).code, 419);
    await setInsightsFault(svc, 'twitter', 'down');
    const down = await adapter.analytics!(linked.ctx, [networkPostId]);
    await setInsightsFault(svc, 'twitter', '444');
    const limited = await adapter.accountAnalytics!(linked.ctx);
    await setInsightsFault(svc, 'twitter', 'partial');
    const partial = await adapter.analytics!(linked.ctx, [networkPostId]);
    await setInsightsFault(svc, 'twitter', null);
    assert.deepEqual([(down as any).code, (down as any).retryAvailable], [503, true]);
    assert.equal((limited as any).code, 364);
    assert.ok((limited as any).retryAfterMs > 0);
    assert.deepEqual((partial as PostAnalytics[])[0]!.failedMetrics, ['impressionCount']);
  });
});

describe('twitter reads sign with the X app of the request', () => {
  test('a profile whose twitter account has no tweets yet reads with the headers\' app; without them 419 as a 400, not a 5xx', async () => {
    const profileKey = (await svc.api('POST', '/profiles', { body: { title: 'No tweets yet' } })).json.profileKey as string;
    await linkSandboxAccounts(svc, ['twitter'], profileKey);
    const none = { 'X-Twitter-OAuth1-Api-Key': '', 'X-Twitter-OAuth1-Api-Secret': '' };
    const refused = await svc.api('POST', '/analytics/social', { body: { platforms: ['twitter'] }, headers: { 'Profile-Key': profileKey, ...none } });
    assert.equal(refused.status, 400, JSON.stringify(refused.json));
    assert.deepEqual([refused.json.status, refused.json.code], ['error', 419]);
    const social = await svc.api('POST', '/analytics/social', { body: { platforms: ['twitter'] }, headers: { 'Profile-Key': profileKey } });
    assert.equal(social.json.status, 'success', JSON.stringify(social.json));
  });
});

describe('twitter comments', () => {
  test('replies in the conversation are the comments; a reply tweet answers one; 490 and 186 otherwise', async () => {
    const { id, networkPostId } = await publish(svc, 'twitter');
    const commentId = await audienceComment(svc, 'twitter', networkPostId, 'Nice thread', 'grace');
    const comments = ok(await adapter.comments!(linked.ctx, networkPostId));
    assert.equal(lastCall('/sandbox/twitter/2/tweets/search/recent').query.get('query'), `conversation_id:${networkPostId}`);
    assert.deepEqual(comments.map((c) => [c.id, c.text, c.author, c.replyTo]), [[commentId, 'Nice thread', 'grace', null]]);

    svc.clock.advance(1000);
    const reply = ok(await adapter.reply!(linked.ctx, networkPostId, commentId, 'Thanks!'));
    const posted = lastCall('/sandbox/twitter/2/tweets');
    assert.equal(posted.method, 'POST');
    assert.deepEqual(JSON.parse(posted.body!), { text: 'Thanks!', reply: { in_reply_to_tweet_id: commentId } });
    const listed = await svc.api('GET', `/comments/${id}`);
    assert.deepEqual(listed.json.twitter.map((c: any) => [c.commentId, c.comment, c.replyTo]), [[commentId, 'Nice thread', null], [reply.id, 'Thanks!', commentId]]);

    const unknown = await adapter.reply!(linked.ctx, networkPostId, '1234567890', 'Hi');
    assert.equal((unknown as any).code, 490);
    const notMine = await adapter.comments!(linked.ctx, '1234567890123456789');
    assert.equal((notMine as any).code, 186);
  });
});
