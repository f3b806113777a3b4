/**
 * linkedin's own analytics and comments (networks/linkedin/engagement.ts) against the sandbox REST API of a real
 * service on loopback: memberCreatorPostAnalytics per metric type for a personal profile (one failing type is one
 * failed metric; 403 is 475, relink), organizationalEntityShareStatistics and networkSizes for a page,
 * memberFollowersCount, socialActions comments of the account's own post and a nested reply.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { PostAnalytics } from '../../src/networks/analytics-contract.js';
import { linkedinPublishAdapter as adapter } from '../../src/networks/linkedin/publish.js';
import { ENGAGEMENT_ADAPTERS } from '../../src/analytics/engagement-adapters.js';
import { startPublishingService } from '../publishing/publishing-fixtures.js';
import type { TestService } from '../support/test-service.js';
import { audienceComment, publish, setInsightsFault } from './analytics-fixtures.js';
import { engagementContext, ok } from './engagement-context.js';

const HOUR = 60 * 60 * 1000;
const MEMBER_TYPES = ['COMMENT', 'IMPRESSION', 'MEMBERS_REACHED', 'REACTION', 'RESHARE'];
let svc: TestService;
let linked: Awaited<ReturnType<typeof engagementContext>>;

before(async () => {
  svc = await startPublishingService({ env: { ANALYTICS_SNAPSHOTS: 'off' } });
  linked = await engagementContext(svc, 'linkedin');
});
after(() => svc.close());

const callsTo = (path: string) => linked.calls.filter((call) => call.path === path);

describe('linkedin analytics', () => {
  test('the analytics service uses the linkedin adapter itself', () => {
    // Its engagement reads are the adapter's own (PUBLISH_ADAPTERS wraps only the commit, uncertain-call.ts).
    for (const read of ['analytics', 'accountAnalytics', 'comments'] as const) assert.equal(ENGAGEMENT_ADAPTERS.linkedin[read], adapter[read], read);
  });

  test('a personal profile: one memberCreatorPostAnalytics call per metric type; a post of nobody is not found', async () => {
    const { networkPostId } = await publish(svc, 'linkedin');
    svc.clock.advance(2 * HOUR);
    linked.calls.length = 0;
    const [own, missing] = ok(await adapter.analytics!(linked.ctx, [networkPostId, 'urn:li:share:123'])) as PostAnalytics[];
    const calls = callsTo('/sandbox/linkedin/rest/memberCreatorPostAnalytics').filter((call) => call.query.get('entity') === `(share:${networkPostId})`);
    assert.deepEqual(calls.map((call) => call.query.get('queryType')).sort(), MEMBER_TYPES);
    for (const call of calls) assert.deepEqual([call.query.get('q'), call.query.get('aggregation')], ['entity', 'TOTAL']);
    assert.deepEqual([own!.found, own!.owned, missing!.found], [true, true, false]);
    assert.deepEqual(Object.keys(own!.metrics).sort(), ['commentCount', 'impressionCount', 'membersReachedCount', 'reactionCount', 'reshareCount']);
    assert.ok(own!.metrics.impressionCount! > 0);
  });

  test('one failing metric type is one failed metric; 403 is 475 (relink); down is 503; 429 waits', async () => {
    const { networkPostId } = await publish(svc, 'linkedin');
    await setInsightsFault(svc, 'linkedin', 'partial');
    const partial = await adapter.analytics!(linked.ctx, [networkPostId]);
    await setInsightsFault(svc, 'linkedin', '475');
    const scopes = await adapter.analytics!(linked.ctx, [networkPostId]);
    const scopesAccount = await adapter.accountAnalytics!(linked.ctx);
    await setInsightsFault(svc, 'linkedin', 'down');
    const down = await adapter.analytics!(linked.ctx, [networkPostId]);
    await setInsightsFault(svc, 'linkedin', '444');
    const throttled = await adapter.accountAnalytics!(linked.ctx);
    await setInsightsFault(svc, 'linkedin', null);
    assert.deepEqual((partial as PostAnalytics[])[0]!.failedMetrics, ['impressionCount']);
    assert.equal('reactionCount' in (partial as PostAnalytics[])[0]!.metrics, true);
    for (const failure of [scopes, scopesAccount]) assert.deepEqual([(failure as any).code, (failure as any).relink], [475, true]);
    assert.deepEqual([(down as any).code, (down as any).retryAvailable], [503, true]);
    assert.deepEqual([(throttled as any).code, (throttled as any).retryAvailable], [429, true]);
  });

  test('followers of a member come from memberFollowersCount?q=me', async () => {
    const answer = ok(await adapter.accountAnalytics!(linked.ctx));
    assert.equal(callsTo('/sandbox/linkedin/rest/memberFollowersCount').at(-1)?.query.get('q'), 'me');
    assert.equal(typeof answer.metrics.followerCount, 'number');
  });

  test('a page (organization URN): organizationalEntityShareStatistics in one call, followers from networkSizes', async () => {
    const { networkPostId } = await publish(svc, 'linkedin');
    svc.clock.advance(HOUR);
    // The sandbox member administers urn:li:organization:{member id}, whose shares are the member's.
    const page = { ...linked.ctx, account: { ...linked.ctx.account, accountId: `urn:li:organization:${linked.accountId}` } };
    const [stats] = ok(await adapter.analytics!(page, [networkPostId])) as PostAnalytics[];
    const call = callsTo('/sandbox/linkedin/rest/organizationalEntityShareStatistics').at(-1)!;
    assert.equal(call.query.get('organizationalEntity'), page.account.accountId);
    assert.equal(call.query.get('shares'), `List(${networkPostId})`);
    assert.deepEqual(Object.keys(stats!.metrics).sort(), ['clickCount', 'commentCount', 'impressionCount', 'likeCount', 'shareCount', 'uniqueImpressionsCount']);
    const followers = ok(await adapter.accountAnalytics!(page));
    assert.equal(callsTo(`/sandbox/linkedin/rest/networkSizes/${encodeURIComponent(page.account.accountId)}`).at(-1)?.query.get('edgeType'), 'COMPANY_FOLLOWED_BY_MEMBER');
    assert.equal(typeof followers.metrics.followerCount, 'number');
  });
});

describe('linkedin comments', () => {
  test("socialActions comments of the account's own post; a nested reply with parentComment; 490 and 186", async () => {
    const { networkPostId } = await publish(svc, 'linkedin');
    await audienceComment(svc, 'linkedin', networkPostId, 'Congratulations', 'ada');
    const [comment] = ok(await adapter.comments!(linked.ctx, networkPostId));
    assert.match(comment!.id, /^urn:li:comment:\(urn:li:share:\d+,sbc_/);
    assert.deepEqual([comment!.text, comment!.author, comment!.replyTo], ['Congratulations', 'urn:li:person:ada', null]);

    svc.clock.advance(1000);
    const reply = ok(await adapter.reply!(linked.ctx, networkPostId, comment!.id, 'Thank you!'));
    const posted = [...linked.calls].reverse().find((call) => call.method === 'POST')!;
    assert.equal(posted.path, `/sandbox/linkedin/rest/socialActions/${encodeURIComponent(comment!.id)}/comments`);
    assert.deepEqual(JSON.parse(posted.body!), { actor: `urn:li:person:${linked.accountId}`, object: networkPostId, parentComment: comment!.id, message: { text: 'Thank you!' } });
    const after_ = ok(await adapter.comments!(linked.ctx, networkPostId));
    assert.deepEqual(after_.map((c) => [c.id, c.replyTo]), [[comment!.id, null], [reply.id, comment!.id]]);

    assert.equal((await adapter.reply!(linked.ctx, networkPostId, 'urn:li:comment:(urn:li:share:1,sbc_x)', 'Hi') as any).code, 490);
    assert.equal((await adapter.comments!(linked.ctx, 'urn:li:share:123') as any).code, 186);
  });
});
