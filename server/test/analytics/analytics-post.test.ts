/**
 * POST /api/analytics/post and POST /api/analytics/social on the real service (loopback HTTP, real database, the
 * sandbox networks on the service itself, the service clock moved by the test): metrics that grow, network post
 * ids with ownership, youtube of another channel, bad input, and the storage rules of spec 2.7 (backfilledFrom,
 * recoveredFrom, nothing older than 4 days), 444 and 475.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { TestService } from '../support/test-service.js';
import { linkSandboxAccounts, startPublishingService } from '../publishing/publishing-fixtures.js';
import { publish, setInsightsFault } from './analytics-fixtures.js';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const PLATFORMS = ['twitter', 'facebook', 'linkedin', 'youtube', 'instagram', 'pinterest'] as const;

let svc: TestService;
let otherProfileKey: string;

before(async () => {
  // The scheduled snapshots would store data between a test's calls: these tests control every stored answer.
  svc = await startPublishingService({ env: { ANALYTICS_SNAPSHOTS: 'off' } });
  await linkSandboxAccounts(svc, [...PLATFORMS]);
  const created = await svc.api('POST', '/profiles', { body: { title: 'Another user' } });
  otherProfileKey = created.json.profileKey as string;
  await linkSandboxAccounts(svc, ['twitter', 'youtube'], otherProfileKey);
});
after(() => svc.close());

const byNetworkId = (platform: string, body: Record<string, unknown>) => svc.api('POST', '/analytics/post', { body: { platforms: [platform], searchPlatformId: true, ...body } });

describe('post analytics', () => {
  test('by service post id: the network names of the metrics, growing with the service clock', async () => {
    const { id, networkPostId } = await publish(svc, 'twitter');
    svc.clock.advance(2 * HOUR);
    const first = await svc.api('POST', '/analytics/post', { body: { id } });
    assert.equal(first.status, 200, JSON.stringify(first.json));
    assert.equal(first.json.status, 'success');
    assert.equal(first.json.twitter.id, networkPostId);
    const metrics = first.json.twitter.analytics;
    for (const name of ['impressionCount', 'likeCount', 'retweetCount', 'replyCount', 'quoteCount', 'bookmarkCount']) assert.equal(typeof metrics[name], 'number', name);
    assert.ok(metrics.impressionCount > 0);
    svc.clock.advance(3 * HOUR);
    const later = await svc.api('POST', '/analytics/post', { body: { id } });
    assert.ok(later.json.twitter.analytics.impressionCount > metrics.impressionCount);
    assert.equal(later.json.twitter.lastUpdated, new Date(svc.clock()).toISOString());
    assert.equal(later.json.twitter.backfilledFrom, undefined);
  });

  test('by network post ids: one entry per id; an id of another account is 186', async () => {
    const mine = await publish(svc, 'twitter');
    const theirs = await publish(svc, 'twitter', { 'Profile-Key': otherProfileKey });
    svc.clock.advance(HOUR);
    const answer = await byNetworkId('twitter', { postIds: [mine.networkPostId, theirs.networkPostId, '123456789'] });
    assert.equal(answer.status, 200, JSON.stringify(answer.json));
    assert.equal(answer.json.status, 'error');
    const [own, other, unknown] = answer.json.twitter;
    assert.equal(own.status, 'success');
    assert.ok(own.analytics.impressionCount > 0);
    assert.deepEqual([other.status, other.code, unknown.status, unknown.code], ['error', 186, 'error', 186]);
    const single = await byNetworkId('twitter', { id: theirs.networkPostId });
    assert.equal(single.status, 404);
    assert.equal(single.json.code, 186);
    assert.equal(single.json.status, 'error');
  });

  test('youtube: a public video of another channel gives its descriptive fields with every numeric metric zero; a private one is 186', async () => {
    const hidden = await publish(svc, 'youtube', { 'Profile-Key': otherProfileKey });
    const refused = await byNetworkId('youtube', { id: hidden.networkPostId });
    assert.equal(refused.status, 404, JSON.stringify(refused.json));
    assert.equal(refused.json.code, 186);
    const theirs = await publish(svc, 'youtube', { 'Profile-Key': otherProfileKey }, { youTubeVisibility: 'public' });
    svc.clock.advance(HOUR);
    const answer = await byNetworkId('youtube', { id: theirs.networkPostId });
    assert.equal(answer.status, 200, JSON.stringify(answer.json));
    const entry = answer.json.youtube;
    assert.equal(entry.owned, false);
    for (const field of ['title', 'description', 'tags', 'channelTitle', 'privacyStatus', 'thumbnailUrls']) assert.ok(field in entry.analytics, field);
    for (const name of ['viewCount', 'likeCount', 'commentCount']) assert.equal(entry.analytics[name], 0, name);
    const mine = await publish(svc, 'youtube');
    svc.clock.advance(HOUR);
    const own = await byNetworkId('youtube', { id: mine.networkPostId });
    assert.equal(own.json.youtube.owned, true);
    assert.ok(own.json.youtube.analytics.viewCount > 0);
  });

  test('instagram posts from before the business conversion report limited analytics', async () => {
    const { networkPostId } = await publish(svc, 'instagram');
    svc.clock.advance(HOUR);
    await setInsightsFault(svc, 'instagram', 'limited');
    const answer = await byNetworkId('instagram', { id: networkPostId });
    await setInsightsFault(svc, 'instagram', null);
    assert.equal(answer.json.instagram.limited, true);
    assert.deepEqual(Object.keys(answer.json.instagram.analytics).sort(), ['comments', 'likes']);
  });

  test('bad input: 101 ids, two platforms, no searchPlatformId, unknown platform, neither id nor postIds, unknown field', async () => {
    const ids = Array.from({ length: 101 }, (_, i) => String(1000 + i));
    const cases: [Record<string, unknown>, number][] = [
      [{ postIds: ids, platforms: ['twitter'], searchPlatformId: true }, 101],
      [{ id: '1', platforms: ['twitter', 'facebook'], searchPlatformId: true }, 163],
      [{ postIds: ['1'], platforms: ['twitter'] }, 101],
      [{ id: '1', platforms: ['pinterest'], searchPlatformId: true }, 163],
      [{ id: '1', searchPlatformId: true }, 163],
      [{ platforms: ['twitter'], searchPlatformId: true }, 101],
      [{ id: '1', postIds: ['2'], platforms: ['twitter'], searchPlatformId: true }, 101],
      [{ id: '1', platforms: ['twitter'], searchPlatformId: 'yes' }, 101],
      [{ id: '1', extra: true }, 101],
    ];
    for (const [body, code] of cases) {
      const answer = await svc.api('POST', '/analytics/post', { body });
      assert.equal(answer.status, 400, JSON.stringify([body, answer.json]));
      assert.equal(answer.json.code, code, JSON.stringify([body, answer.json]));
      assert.equal(answer.json.status, 'error');
      assert.equal(typeof answer.json.message, 'string');
      assert.equal(answer.json.action, 'analytics');
    }
    const notJson = await svc.api('POST', '/analytics/post', { rawBody: '{nope' });
    assert.equal(notJson.status, 400);
    // A network post id without searchPlatformId is read as a service post id: not found.
    const mine = await publish(svc, 'twitter');
    const asServiceId = await svc.api('POST', '/analytics/post', { body: { id: mine.networkPostId, platforms: ['twitter'] } });
    assert.equal(asServiceId.status, 404);
    assert.equal(asServiceId.json.code, 101);
    // A service post of another profile is not found either.
    const theirs = await publish(svc, 'twitter', { 'Profile-Key': otherProfileKey });
    const foreign = await svc.api('POST', '/analytics/post', { body: { id: theirs.id } });
    assert.equal(foreign.status, 404);
  });
});

describe('stored analytics (spec 2.7)', () => {
  test('some metrics failing are filled from stored data, with backfilledFrom the time that data was taken', async () => {
    const { networkPostId } = await publish(svc, 'facebook');
    svc.clock.advance(HOUR);
    const stored = await byNetworkId('facebook', { id: networkPostId });
    const storedAt = stored.json.facebook.lastUpdated;
    svc.clock.advance(2 * HOUR);
    await setInsightsFault(svc, 'facebook', 'partial');
    const partial = await byNetworkId('facebook', { id: networkPostId });
    await setInsightsFault(svc, 'facebook', null);
    assert.equal(partial.status, 200, JSON.stringify(partial.json));
    const entry = partial.json.facebook;
    assert.equal(entry.backfilledFrom, storedAt);
    // The failed counters (impressions, reach) come from the stored answer; the others are fresh and larger.
    assert.equal(entry.analytics.impressions, stored.json.facebook.analytics.impressions);
    assert.equal(entry.analytics.reach, stored.json.facebook.analytics.reach);
    assert.ok(entry.analytics.reactions > stored.json.facebook.analytics.reactions);
  });

  test('a failed call is recovered from stored data with recoveredFrom; 444 answers 429 when nothing is stored', async () => {
    const { networkPostId } = await publish(svc, 'facebook');
    const never = await publish(svc, 'facebook');
    svc.clock.advance(HOUR);
    const stored = await byNetworkId('facebook', { id: networkPostId });
    svc.clock.advance(HOUR);
    await setInsightsFault(svc, 'facebook', '444');
    const recovered = await byNetworkId('facebook', { id: networkPostId });
    const throttled = await byNetworkId('facebook', { id: never.networkPostId });
    await setInsightsFault(svc, 'facebook', null);
    assert.equal(recovered.status, 200, JSON.stringify(recovered.json));
    assert.equal(recovered.json.facebook.recoveredFrom, stored.json.facebook.lastUpdated);
    assert.deepEqual(recovered.json.facebook.analytics, stored.json.facebook.analytics);
    assert.equal(throttled.status, 429, JSON.stringify(throttled.json));
    assert.equal(throttled.json.code, 444);
    assert.equal(throttled.json.retryAvailable, true);
    assert.equal(throttled.json.details?.relink, undefined);
  });

  test('stored data older than 4 days is never used, for backfill or recovery', async () => {
    const { networkPostId } = await publish(svc, 'linkedin');
    svc.clock.advance(HOUR);
    assert.equal((await byNetworkId('linkedin', { id: networkPostId })).status, 200);
    svc.clock.advance(4 * DAY + HOUR);
    await setInsightsFault(svc, 'linkedin', 'partial');
    const partial = await byNetworkId('linkedin', { id: networkPostId });
    assert.equal(partial.json.linkedin.backfilledFrom, undefined);
    assert.ok(!('impressionCount' in partial.json.linkedin.analytics), JSON.stringify(partial.json));
    svc.clock.advance(4 * DAY + HOUR);
    await setInsightsFault(svc, 'linkedin', 'down');
    const down = await byNetworkId('linkedin', { id: networkPostId });
    await setInsightsFault(svc, 'linkedin', null);
    assert.equal(down.status, 503, JSON.stringify(down.json));
    assert.equal(down.json.code, 503);
    assert.equal(down.json.retryAvailable, true);
  });

  test('475: a linkedin profile without member analytics scopes must relink; stored data does not hide it', async () => {
    const { networkPostId } = await publish(svc, 'linkedin');
    svc.clock.advance(HOUR);
    assert.equal((await byNetworkId('linkedin', { id: networkPostId })).status, 200);
    await setInsightsFault(svc, 'linkedin', '475');
    const post = await byNetworkId('linkedin', { id: networkPostId });
    const social = await svc.api('POST', '/analytics/social', { body: { platforms: ['linkedin'] } });
    await setInsightsFault(svc, 'linkedin', null);
    for (const answer of [post, social]) {
      assert.equal(answer.status, 403, JSON.stringify(answer.json));
      assert.equal(answer.json.code, 475);
      assert.equal(answer.json.details.relink, true);
      assert.equal(answer.json.retryAvailable, false);
    }
  });
});

describe('account analytics', () => {
  test('followers and the like per network, stored, recovered when the network fails', async () => {
    const first = await svc.api('POST', '/analytics/social', { body: { platforms: ['twitter', 'youtube'] } });
    assert.equal(first.status, 200, JSON.stringify(first.json));
    assert.equal(first.json.status, 'success');
    assert.equal(typeof first.json.twitter.analytics.followersCount, 'number');
    assert.equal(typeof first.json.youtube.analytics.subscriberCount, 'number');
    svc.clock.advance(10 * HOUR);
    const grown = await svc.api('POST', '/analytics/social', { body: { platforms: ['twitter'] } });
    assert.ok(grown.json.twitter.analytics.followersCount > first.json.twitter.analytics.followersCount);
    svc.clock.advance(HOUR);
    await setInsightsFault(svc, 'twitter', 'down');
    const recovered = await svc.api('POST', '/analytics/social', { body: { platforms: ['twitter'] } });
    const partialOfTwo = await svc.api('POST', '/analytics/social', { body: { platforms: ['twitter', 'facebook'] } });
    await setInsightsFault(svc, 'twitter', 'partial');
    const backfilled = await svc.api('POST', '/analytics/social', { body: { platforms: ['twitter'] } });
    await setInsightsFault(svc, 'twitter', null);
    assert.equal(recovered.json.twitter.recoveredFrom, grown.json.twitter.lastUpdated);
    assert.deepEqual(recovered.json.twitter.analytics, grown.json.twitter.analytics);
    assert.equal(partialOfTwo.json.twitter.recoveredFrom, grown.json.twitter.lastUpdated);
    assert.equal(partialOfTwo.json.facebook.status, 'success');
    assert.equal(backfilled.json.twitter.backfilledFrom, grown.json.twitter.lastUpdated);
    const bad = await svc.api('POST', '/analytics/social', { body: { platforms: ['pinterest'] } });
    assert.equal(bad.status, 400);
    assert.equal(bad.json.code, 163);
    const missing = await svc.api('POST', '/analytics/social', { body: {} });
    assert.equal(missing.status, 400);
  });
});
