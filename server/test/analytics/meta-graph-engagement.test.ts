/**
 * facebook, instagram and threads read their analytics and comments through their own Graph APIs: the real adapters
 * against the Graph sandboxes of a real service on loopback (real database, the service clock moved by the test).
 * The adapters are called with a fetch that notes each request, so the tests see the Graph paths they use; the
 * numbers come from the sandbox, which grows them with the service clock. Through the service's API: the same
 * networks' analytics, comments and replies, and the Graph failures as the spec's codes.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Network } from '@social-link-kit/protocol';
import type { AnalyticsAdapter, NetworkContext, PostAnalytics } from '../../src/networks/analytics-contract.js';
import { facebookPublishAdapter } from '../../src/networks/facebook/publish.js';
import { instagramPublishAdapter } from '../../src/networks/instagram/publish.js';
import { threadsPublishAdapter } from '../../src/networks/threads/publish.js';
import type { PublishFailure } from '../../src/networks/publish-adapter.js';
import type { TestService } from '../support/test-service.js';
import { startPublishingService } from '../publishing/publishing-fixtures.js';
import { linkSandboxAccount } from '../sandbox/sandbox-adapter-context.js';
import { audienceComment, publish, setInsightsFault } from './analytics-fixtures.js';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
type Meta = Extract<Network, 'facebook' | 'instagram' | 'threads'>;
const ADAPTERS: Record<Meta, AnalyticsAdapter> = { facebook: facebookPublishAdapter, instagram: instagramPublishAdapter, threads: threadsPublishAdapter };
const BASES: Record<Meta, string> = { facebook: '/sandbox/facebook/v21.0', instagram: '/sandbox/instagram/v21.0', threads: '/sandbox/threads/v1.0' };

let svc: TestService;
const linked = {} as Record<Meta, Awaited<ReturnType<typeof linkSandboxAccount>>>;

before(async () => {
  // These tests control every stored answer: no scheduled snapshots in between.
  svc = await startPublishingService({ env: { ANALYTICS_SNAPSHOTS: 'off' } });
  for (const platform of ['facebook', 'instagram', 'threads'] as const) linked[platform] = await linkSandboxAccount(svc, platform);
});
after(() => svc.close());

/** An adapter context for `platform` whose fetch notes `METHOD /path?metric|fields` of each Graph request. */
function recordingContext(platform: Meta): { ctx: NetworkContext; calls: string[] } {
  const calls: string[] = [];
  const base = linked[platform].context(`${svc.url}${BASES[platform]}`);
  const ctx: NetworkContext = {
    account: base.account,
    baseUrl: base.baseUrl,
    now: base.now,
    log: base.log,
    fetch: (url, init) => {
      const parsed = new URL(String(url));
      const path = parsed.pathname.slice(BASES[platform].length);
      const query = parsed.searchParams.get('metric') ?? parsed.searchParams.get('fields');
      calls.push(`${init?.method ?? 'GET'} ${decodeURIComponent(path)}${query ? `?${query}` : ''}`);
      return fetch(url, init);
    },
  };
  return { ctx, calls };
}

function analyticsOf(answer: PostAnalytics[] | PublishFailure): PostAnalytics[] {
  assert.ok(Array.isArray(answer), JSON.stringify(answer));
  return answer;
}

function failureOf<T>(answer: T | PublishFailure): PublishFailure {
  assert.equal((answer as PublishFailure).kind, 'failed', JSON.stringify(answer));
  return answer as PublishFailure;
}

describe('post and account analytics from the Graph paths', () => {
  it('facebook: /{post-id}/insights and the page fields, under the names of docs/analytics.md', async () => {
    const { networkPostId } = await publish(svc, 'facebook');
    svc.clock.advance(2 * HOUR);
    const { ctx, calls } = recordingContext('facebook');
    const [own, unknown] = analyticsOf(await facebookPublishAdapter.analytics!(ctx, [networkPostId, '1234_5678']));
    assert.deepEqual(own, {
      id: networkPostId,
      found: true,
      owned: true,
      metrics: { impressions: 240, reach: 180, reactions: 24, clicks: 16, videoViews: 60, comments: 6, shares: 4 },
      failedMetrics: [],
    });
    assert.equal(unknown!.found, false);
    assert.equal(calls[0], `GET /${networkPostId}/insights?post_impressions,post_impressions_unique,post_reactions_by_type_total,post_clicks,post_video_views,post_activity_by_action_type`);
    assert.equal(calls[1], 'GET /1234_5678/insights?post_impressions,post_impressions_unique,post_reactions_by_type_total,post_clicks,post_video_views,post_activity_by_action_type');

    const account = await facebookPublishAdapter.accountAnalytics!(ctx);
    assert.ok(!('kind' in account), JSON.stringify(account));
    assert.deepEqual(Object.keys(account.metrics).sort(), ['fanCount', 'followersCount']);
    assert.ok(account.metrics.fanCount! >= 100);
    assert.equal(calls.at(-1), `GET /${ctx.account.accountId}?fan_count,followers_count`);
  });

  it('facebook: the partial fault leaves metrics out of the answer, and they are reported as failed', async () => {
    const { networkPostId } = await publish(svc, 'facebook');
    const { ctx } = recordingContext('facebook');
    await setInsightsFault(svc, 'facebook', 'partial');
    const [item] = analyticsOf(await facebookPublishAdapter.analytics!(ctx, [networkPostId]));
    const account = await facebookPublishAdapter.accountAnalytics!(ctx);
    await setInsightsFault(svc, 'facebook', null);
    assert.deepEqual(item!.failedMetrics, ['impressions', 'reach']);
    assert.equal(item!.metrics.impressions, undefined);
    assert.ok(!('kind' in account));
    assert.deepEqual(account.failedMetrics, ['fanCount']);
  });

  it('facebook: the page throttle (Graph 80001) is 444, retryable, no relink', async () => {
    const { networkPostId } = await publish(svc, 'facebook');
    const { ctx } = recordingContext('facebook');
    await setInsightsFault(svc, 'facebook', '444');
    const post = failureOf(await facebookPublishAdapter.analytics!(ctx, [networkPostId]));
    const account = failureOf(await facebookPublishAdapter.accountAnalytics!(ctx));
    await setInsightsFault(svc, 'facebook', null);
    for (const failure of [post, account]) {
      assert.deepEqual([failure.code, failure.retryAvailable, failure.relink, failure.details?.graphCode], [444, true, false, 80001]);
    }
  });

  it('instagram: /{media-id}/insights; media from before the business conversion falls back to its counters, limited', async () => {
    const { networkPostId } = await publish(svc, 'instagram');
    svc.clock.advance(HOUR);
    const { ctx, calls } = recordingContext('instagram');
    const [item] = analyticsOf(await instagramPublishAdapter.analytics!(ctx, [networkPostId]));
    assert.deepEqual(item!.metrics, { impressions: 150, reach: 110, likes: 15, comments: 4, saved: 2, shares: 1, views: 60 });
    assert.equal(item!.limited, undefined);
    assert.equal(calls.at(-1), `GET /${networkPostId}/insights?impressions,reach,likes,comments,saved,shares,views`);

    await setInsightsFault(svc, 'instagram', 'limited');
    const [limited] = analyticsOf(await instagramPublishAdapter.analytics!(ctx, [networkPostId]));
    await setInsightsFault(svc, 'instagram', null);
    assert.deepEqual([limited!.limited, limited!.metrics], [true, { likes: 15, comments: 4 }]);
    assert.deepEqual(calls.slice(-2), [`GET /${networkPostId}/insights?impressions,reach,likes,comments,saved,shares,views`, `GET /${networkPostId}?like_count,comments_count`]);

    const account = await instagramPublishAdapter.accountAnalytics!(ctx);
    assert.ok(!('kind' in account), JSON.stringify(account));
    assert.deepEqual(Object.keys(account.metrics).sort(), ['followersCount', 'followsCount', 'mediaCount']);
    assert.ok(account.metrics.mediaCount! >= 1);
    assert.equal(calls.at(-1), `GET /${ctx.account.accountId}?followers_count,follows_count,media_count`);
  });

  it('instagram: a rate limit on insights stays 429 (444 is facebook’s)', async () => {
    const { networkPostId } = await publish(svc, 'instagram');
    const { ctx } = recordingContext('instagram');
    await setInsightsFault(svc, 'instagram', '444');
    const failure = failureOf(await instagramPublishAdapter.analytics!(ctx, [networkPostId]));
    await setInsightsFault(svc, 'instagram', null);
    assert.deepEqual([failure.code, failure.retryAvailable, failure.relink], [429, true, false]);
  });

  it('threads: /{media-id}/insights and /{user-id}/threads_insights, growing with the service clock', async () => {
    const { networkPostId } = await publish(svc, 'threads');
    svc.clock.advance(HOUR);
    const { ctx, calls } = recordingContext('threads');
    const [first] = analyticsOf(await threadsPublishAdapter.analytics!(ctx, [networkPostId]));
    assert.deepEqual(first!.metrics, { views: 100, likes: 9, replies: 3, reposts: 2, quotes: 1, shares: 1 });
    svc.clock.advance(HOUR);
    const [later] = analyticsOf(await threadsPublishAdapter.analytics!(ctx, [networkPostId]));
    assert.equal(later!.metrics.views, 200);
    assert.equal(calls[0], `GET /${networkPostId}/insights?views,likes,replies,reposts,quotes,shares`);
    const account = await threadsPublishAdapter.accountAnalytics!(ctx);
    assert.ok(!('kind' in account), JSON.stringify(account));
    assert.ok(account.metrics.followersCount! >= 100);
    assert.equal(calls.at(-1), `GET /${ctx.account.accountId}/threads_insights?followers_count`);
  });
});

describe('comments and replies on each network’s own comment edges', () => {
  const expected: Record<Meta, { list: (post: string) => string; reply: (comment: string, user: string) => string[] }> = {
    facebook: { list: (post) => `GET /${post}/comments?id,message,from{name},created_time,parent{id}`, reply: (comment) => [`POST /${comment}/comments`] },
    instagram: { list: (post) => `GET /${post}/comments?id,text,username,timestamp,replies{id,text,username,timestamp}`, reply: (comment) => [`POST /${comment}/replies`] },
    threads: { list: (post) => `GET /${post}/conversation?id,text,username,timestamp,replied_to`, reply: (_, user) => [`POST /${user}/threads`, 'GET', `POST /${user}/threads_publish`] },
  };
  for (const platform of ['facebook', 'instagram', 'threads'] as const) {
    it(`${platform}: an audience comment is listed with its author; the account's reply lands under it; an unknown comment is 490`, async () => {
      const adapter = ADAPTERS[platform];
      const { networkPostId } = await publish(svc, platform);
      const commentId = await audienceComment(svc, platform, networkPostId, `Nice one on ${platform}`, 'ada');
      svc.clock.advance(1000);
      const { ctx, calls } = recordingContext(platform);
      const replied = await adapter.reply!(ctx, networkPostId, commentId, 'Thank you!');
      assert.equal(replied.kind, 'done', JSON.stringify(replied));
      const replyCalls = calls.splice(0).map((call) => (call.startsWith('GET') ? 'GET' : call));
      assert.deepEqual(replyCalls, expected[platform].reply(commentId, ctx.account.accountId));

      const listed = await adapter.comments!(ctx, networkPostId);
      assert.ok(Array.isArray(listed), JSON.stringify(listed));
      assert.deepEqual(
        listed.map((comment) => [comment.id, comment.text, comment.replyTo]),
        [
          [commentId, `Nice one on ${platform}`, null],
          [(replied as { id: string }).id, 'Thank you!', commentId],
        ],
      );
      assert.equal(listed[0]!.author, 'ada');
      assert.equal(calls[0], expected[platform].list(networkPostId));

      const unknown = failureOf(await adapter.reply!(ctx, networkPostId, 'sbc_nope', 'Hi'));
      assert.equal(unknown.code, 490);
      const notOurs = failureOf(await adapter.comments!(ctx, '999999'));
      assert.equal(notOurs.code, 186);
    });
  }

  it('through the service: GET /api/comments and the reply use the network’s own API', async () => {
    const { id, networkPostId } = await publish(svc, 'instagram');
    const commentId = await audienceComment(svc, 'instagram', networkPostId, 'Where can I buy it?', 'grace');
    const listed = await svc.api('GET', `/comments/${id}`);
    assert.equal(listed.status, 200, JSON.stringify(listed.json));
    assert.deepEqual(listed.json.instagram.map((c: any) => [c.commentId, c.comment, c.author]), [[commentId, 'Where can I buy it?', 'grace']]);
    svc.clock.advance(1000);
    const reply = await svc.api('POST', `/comments/${id}/reply`, { body: { commentId, platforms: ['instagram'], comment: 'In the shop.' } });
    assert.equal(reply.status, 200, JSON.stringify(reply.json));
    const stored = await svc.sql('SELECT text, reply_to FROM sandbox_comments WHERE id = ?', [reply.json.id]);
    assert.deepEqual(stored.rows.map((row) => [row.text, row.reply_to]), [['In the shop.', commentId]]);
    const bad = await svc.api('POST', `/comments/${id}/reply`, { body: { commentId: 'sbc_nope', platforms: ['instagram'], comment: 'Hi' } });
    assert.deepEqual([bad.status, bad.json.code], [404, 490]);
  });
});

describe('private replies: POST /{account-id}/messages with recipient.comment_id', () => {
  for (const platform of ['facebook', 'instagram'] as const) {
    it(`${platform}: sent once; the Graph refusals are 490-495, never retried; 491 past 7 days and when already answered`, async () => {
      const adapter = ADAPTERS[platform];
      const { networkPostId } = await publish(svc, platform);
      const { ctx, calls } = recordingContext(platform);
      const plain = await audienceComment(svc, platform, networkPostId, 'price?', 'ada');
      const sent = await adapter.privateReply!(ctx, plain, 'Here is the price.');
      assert.equal(sent.kind, 'done', JSON.stringify(sent));
      assert.deepEqual(calls, [`POST /${ctx.account.accountId}/messages`]);
      const again = failureOf(await adapter.privateReply!(ctx, plain, 'Again'));
      assert.equal(again.code, 491);

      for (const code of [490, 491, 492, 493, 494, 495]) {
        const comment = await audienceComment(svc, platform, networkPostId, `price? [[fault:${code}]]`, 'bob');
        const refused = failureOf(await adapter.privateReply!(ctx, comment, 'Here is the price.'));
        assert.deepEqual([refused.code, refused.retryAvailable, refused.noAutoRetry], [code, false, true], `fault ${code}: ${JSON.stringify(refused)}`);
      }
      const unknown = failureOf(await adapter.privateReply!(ctx, 'sbc_nope', 'Hi'));
      assert.equal(unknown.code, 490);

      const old = await audienceComment(svc, platform, networkPostId, 'price, a week later?', 'cy');
      svc.clock.advance(7 * DAY + HOUR);
      const late = failureOf(await adapter.privateReply!(ctx, old, 'Too late'));
      assert.equal(late.code, 491);
    });
  }
});

describe('through POST /api/analytics', () => {
  it('threads by network id: 186 for a post the account does not have; the network down and nothing stored is 502', async () => {
    const { networkPostId } = await publish(svc, 'threads');
    svc.clock.advance(HOUR);
    const ok = await svc.api('POST', '/analytics/post', { body: { id: networkPostId, platforms: ['threads'], searchPlatformId: true } });
    assert.equal(ok.status, 200, JSON.stringify(ok.json));
    assert.equal(ok.json.threads.analytics.views, 100);
    const missing = await svc.api('POST', '/analytics/post', { body: { id: '424242', platforms: ['threads'], searchPlatformId: true } });
    assert.deepEqual([missing.status, missing.json.code], [404, 186]);
    const fresh = await publish(svc, 'threads');
    await setInsightsFault(svc, 'threads', 'down');
    const down = await svc.api('POST', '/analytics/post', { body: { id: fresh.networkPostId, platforms: ['threads'], searchPlatformId: true } });
    const recovered = await svc.api('POST', '/analytics/post', { body: { id: networkPostId, platforms: ['threads'], searchPlatformId: true } });
    await setInsightsFault(svc, 'threads', null);
    assert.equal(down.status, 502, JSON.stringify(down.json));
    assert.equal(down.json.retryAvailable, true);
    assert.equal(recovered.json.threads.recoveredFrom, ok.json.threads.lastUpdated);
  });
});
