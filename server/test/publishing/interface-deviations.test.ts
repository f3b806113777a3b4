/**
 * Issue 27, "the interface, to the letter": the deviations an integrator would trip over, each called through the
 * public API on the real service (loopback HTTP, real database, the sandbox networks on the service itself).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { TestService } from '../support/test-service.js';
import { linkSandboxAccounts, sandboxPostsFor, startPublishingService, waitForPost } from './publishing-fixtures.js';

const DAY = 24 * 60 * 60 * 1000;
/** The test clock starts at 2026-11-22T12:00:00Z. */
const IN_THREE_WEEKS = '2026-12-13T12:00:00Z';

let svc: TestService;
let n = 0;
const fresh = (label: string) => `${label} deviation ${++n} ${'abcdefghij'.slice(n % 10)}${n * 7919}`;

before(async () => {
  // The first comment goes out right after the post here (spec: about 20 s), so answers that wait for it are quick.
  svc = await startPublishingService({ env: { PUBLISH_FIRST_COMMENT_DELAY_MS: '0' } });
  await linkSandboxAccounts(svc, ['twitter', 'facebook', 'tiktok', 'linkedin', 'bluesky', 'youtube', 'threads', 'instagram']);
});
after(() => svc.close());

describe('1. autoRepost.startDate', () => {
  test('the whole series starts at startDate: the first post is scheduled there, nothing is sent now', async () => {
    const created = await svc.api('POST', '/post', { body: { post: fresh('Later series'), platforms: ['facebook'], autoRepost: { repeat: 2, days: 3, startDate: IN_THREE_WEEKS } } });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    assert.equal(created.json.status, 'scheduled');
    assert.equal(created.json.scheduleDate, IN_THREE_WEEKS);
    assert.equal((await sandboxPostsFor(svc, created.json.id, 'facebook')).length, 0, 'nothing published before startDate');
    const first = await svc.api('GET', `/post/${created.json.id}`);
    assert.equal(first.json.status, 'scheduled');
    assert.equal(first.json.scheduleDate, IN_THREE_WEEKS);
    assert.deepEqual(
      created.json.autoRepost.map((r: any) => r.scheduleDate),
      [1, 2].map((i) => new Date(Date.parse(IN_THREE_WEEKS) + i * 3 * DAY).toISOString().replace('.000', '')),
    );
    for (const repost of created.json.autoRepost) assert.equal(repost.autoRepostId, created.json.autoRepostId);
  });
});

describe('2. the HTTP status of a failed network call is the code\'s row of the error table', () => {
  for (const [code, http] of [[416, 402], [417, 403], [423, 403]] as const) {
    test(`twitter ${code} with nothing published answers ${http}, in the envelope`, async () => {
      const created = await svc.api('POST', '/post', { body: { post: `${fresh('Refused')} [[fault:${code}]]`, platforms: ['twitter'] } });
      assert.equal(created.json.code, code, JSON.stringify(created.json));
      assert.equal(created.status, http, JSON.stringify(created.json));
      assert.equal(created.json.status, 'error');
      assert.equal(created.json.action, 'post');
    });
  }

  test('docs/errors.md is generated from the table (run scripts/write-error-table.ts after a change)', async () => {
    const { readFileSync } = await import('node:fs');
    const { ERROR_TABLE_FILE, renderErrorTable } = await import('../../../scripts/error-table-doc.js');
    assert.equal(readFileSync(new URL(`../../../${ERROR_TABLE_FILE}`, import.meta.url), 'utf8'), renderErrorTable(), `${ERROR_TABLE_FILE} is stale`);
    assert.match(renderErrorTable(), /\| 416 \| 402 \|/);
  });
});

describe('3. youtube categories are checked on create and update', () => {
  const TOMORROW = '2026-11-23T12:00:00Z';
  const videoPost = (categoryId: number | string, extra: Record<string, unknown> = {}) => ({
    post: fresh('A video'),
    platforms: ['youtube'],
    mediaUrls: [`${svc.url}/sandbox/media/video-3s.mp4`],
    isVideo: true,
    youTubeOptions: { title: 'Category check', categoryId },
    ...extra,
  });

  test('a scheduled video post with an assignable: false category is refused at create (101), not at publication', async () => {
    const refused = await svc.api('POST', '/post', { body: videoPost(30, { scheduleDate: TOMORROW }) });
    assert.equal(refused.status, 400, JSON.stringify(refused.json));
    assert.deepEqual([refused.json.code, refused.json.action], [101, 'post']);
    assert.match(refused.json.message, /cannot be assigned/);
    const unknown = await svc.api('POST', '/post', { body: videoPost(9999, { scheduleDate: TOMORROW }) });
    assert.equal(unknown.json.code, 101, JSON.stringify(unknown.json));
  });

  test('PATCH /api/post takes youTubeOptions (DESIGN 3), checks the category and keeps the change for publication', async () => {
    const created = await svc.api('POST', '/post', { body: videoPost(22, { scheduleDate: TOMORROW }) });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    const bad = await svc.api('PATCH', '/post', { body: { id: created.json.id, youTubeOptions: { categoryId: 44 } } });
    assert.deepEqual([bad.status, bad.json.code, bad.json.action], [400, 101, 'post'], JSON.stringify(bad.json));
    const good = await svc.api('PATCH', '/post', { body: { id: created.json.id, youTubeOptions: { categoryId: 27, title: 'Renamed' } } });
    assert.equal(good.status, 200, JSON.stringify(good.json));
    const stored = await svc.sql('SELECT request FROM posts WHERE id = ?', [created.json.id]);
    assert.deepEqual(JSON.parse(stored.rows[0]!.request).youTubeOptions, { title: 'Renamed', categoryId: 27 });
  });

  test('a bad region answers 400, code 101, action request (spec 4.3)', async () => {
    const bad = await svc.api('GET', '/post/youtubeCategories/QQ');
    assert.deepEqual([bad.status, bad.json.code, bad.json.action], [400, 101, 'request']);
  });
});

describe('4. threads allowCountries and isEligibleForGeoRestrictions come from the linked threads account', () => {
  async function threadsAccountId(): Promise<string> {
    const user = await svc.api('GET', '/user');
    return user.json.displayNames.find((entry: any) => entry.platform === 'threads').id;
  }
  async function setEligible(eligible: boolean) {
    const response = await fetch(`${svc.url}/sandbox/threads/accounts/${encodeURIComponent(await threadsAccountId())}/geo-gating`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ eligible }),
    });
    assert.equal(response.status, 200);
  }

  test('an eligible account: GET /user says so and a post restricted to countries publishes with them', async () => {
    await setEligible(true);
    assert.equal((await svc.api('GET', '/user')).json.isEligibleForGeoRestrictions, true);
    const created = await svc.api('POST', '/post', { body: { post: fresh('Only here'), platforms: ['threads'], threadsOptions: { allowCountries: ['US', 'CA'] } } });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    assert.equal(created.json.status, 'success', JSON.stringify(created.json));
  });

  test('an ineligible account: GET /user says false and allowCountries is refused with 101', async () => {
    await setEligible(false);
    assert.equal((await svc.api('GET', '/user')).json.isEligibleForGeoRestrictions, false);
    const refused = await svc.api('POST', '/post', { body: { post: fresh('Only there'), platforms: ['threads'], threadsOptions: { allowCountries: ['US'] } } });
    assert.deepEqual([refused.status, refused.json.code], [400, 101], JSON.stringify(refused.json));
    assert.match(JSON.stringify(refused.json), /eligible for geographic restrictions/);
    await setEligible(true);
  });
});

describe('5. first comment outcomes (spec 4.9 rule 5)', () => {
  const entryOf = (post: Record<string, any>, platform: string) => post.postIds.find((entry: any) => entry.platform === platform);

  test('facebook and linkedin: the create answer carries the comment\'s outcome, its id or its error', async () => {
    const ok = await svc.api('POST', '/post', { body: { post: fresh('Commented'), platforms: ['facebook', 'linkedin'], firstComment: { comment: 'First!' } } });
    assert.equal(ok.status, 200, JSON.stringify(ok.json));
    for (const platform of ['facebook', 'linkedin']) {
      const comment = entryOf(ok.json, platform).firstComment;
      assert.equal(comment.status, 'success', JSON.stringify(comment));
      assert.equal(typeof comment.id, 'string');
    }
    const refused = await svc.api('POST', '/post', { body: { post: fresh('Commented'), platforms: ['facebook'], firstComment: { comment: 'No [[fault:476]]' } } });
    assert.equal(refused.json.status, 'success', JSON.stringify(refused.json));
    assert.deepEqual([entryOf(refused.json, 'facebook').firstComment.status, entryOf(refused.json, 'facebook').firstComment.code], ['error', 476]);
  });

  const clip = () => ({ mediaUrls: [`${svc.url}/sandbox/media/video-10s.mp4`], isVideo: true });

  test('tiktok: the create answer shows the comment pending; it is sent once processing ends', async () => {
    const created = await svc.api('POST', '/post', {
      body: { post: fresh('Clip'), platforms: ['tiktok'], ...clip(), tikTokOptions: { visibility: 'public' }, firstComment: { comment: 'On the clip' } },
    });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    assert.deepEqual(entryOf(created.json, 'tiktok').firstComment, { status: 'pending' });
    svc.clock.advance(60_000);
    const done = await waitForPost(svc, created.json.id, (post) => ['success', 'error'].includes(entryOf(post, 'tiktok')?.firstComment?.status));
    assert.equal(entryOf(done, 'tiktok').firstComment.status, 'success', JSON.stringify(done));
  });

  test('tiktok without visibility public: the post publishes and the comment reports the error', async () => {
    const created = await svc.api('POST', '/post', { body: { post: fresh('Private clip'), platforms: ['tiktok'], ...clip(), firstComment: { comment: 'Hidden' } } });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    svc.clock.advance(60_000);
    const done = await waitForPost(svc, created.json.id, (post) => entryOf(post, 'tiktok')?.firstComment?.status === 'error');
    assert.equal(done.status, 'success', JSON.stringify(done));
    assert.equal(entryOf(done, 'tiktok').firstComment.code, 101);
    assert.match(entryOf(done, 'tiktok').firstComment.message, /visibility/);
  });
});

describe('6. every answer whose status is error carries the whole envelope', () => {
  test('a partly failed post: top-level status error with action, code and message, on create and on GET', async () => {
    const created = await svc.api('POST', '/post', { body: { post: { default: fresh('Partly'), twitter: `${fresh('Partly')} [[fault:416]]` }, platforms: ['facebook', 'twitter'] } });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    assert.equal(created.json.postIds.length, 1);
    for (const answer of [created.json, (await svc.api('GET', `/post/${created.json.id}`)).json]) {
      assert.deepEqual([answer.status, answer.action, answer.code], ['error', 'post', 416], JSON.stringify(answer));
      assert.equal(typeof answer.message, 'string');
    }
  });

  test('a bulk delete where some posts are unknown: status error with action, code and message', async () => {
    const created = await svc.api('POST', '/post', { body: { post: fresh('Deleted'), platforms: ['facebook'] } });
    const removed = await svc.api('DELETE', '/post', { body: { bulk: [created.json.id, 'post_unknown'] } });
    assert.deepEqual([removed.json.status, removed.json.action, removed.json.code], ['error', 'delete', 101], JSON.stringify(removed.json));
    assert.equal(typeof removed.json.message, 'string');
  });
});

describe('7. every twitter-bound operation needs both X app headers (419) and uses the pair it was given', () => {
  const none = { 'X-Twitter-OAuth1-Api-Key': '', 'X-Twitter-OAuth1-Api-Secret': '' };
  const onlyKey = { 'X-Twitter-OAuth1-Api-Secret': '' };
  const wrong = { 'X-Twitter-OAuth1-Api-Key': 'another-app-key', 'X-Twitter-OAuth1-Api-Secret': 'another-app-secret' };
  const is419 = (answer: { status: number; json: Record<string, any> }) => assert.deepEqual([answer.status, answer.json.code], [400, 419], JSON.stringify(answer.json));

  test('analytics, comments, validate, delete and retry', async () => {
    const tweet = await svc.api('POST', '/post', { body: { post: fresh('Tweet'), platforms: ['twitter'] } });
    assert.equal(tweet.json.status, 'success', JSON.stringify(tweet.json));
    const networkId = tweet.json.postIds[0].id;
    for (const headers of [none, onlyKey]) {
      is419(await svc.api('POST', '/analytics/post', { body: { id: tweet.json.id }, headers }));
      is419(await svc.api('POST', '/analytics/post', { body: { id: networkId, platforms: ['twitter'], searchPlatformId: true }, headers }));
      is419(await svc.api('POST', '/analytics/social', { body: { platforms: ['twitter'] }, headers }));
      is419(await svc.api('GET', `/comments/${tweet.json.id}`, { headers }));
      is419(await svc.api('POST', '/validate/post', { body: { post: fresh('Check'), platforms: ['twitter'] }, headers }));
      is419(await svc.api('DELETE', '/post', { body: { id: tweet.json.id }, headers }));
    }
    // The pair given is the one used: another app's pair is refused by X, not replaced by the stored one.
    const signedByOther = await svc.api('POST', '/analytics/post', { body: { id: networkId, platforms: ['twitter'], searchPlatformId: true }, headers: wrong });
    assert.notEqual(signedByOther.json.status, 'success', JSON.stringify(signedByOther.json));
    const signed = await svc.api('POST', '/analytics/post', { body: { id: networkId, platforms: ['twitter'], searchPlatformId: true } });
    assert.equal(signed.json.status, 'success', JSON.stringify(signed.json));
    assert.equal((await svc.api('GET', `/post/${tweet.json.id}`)).json.status, 'success', 'the 419s deleted nothing');
    const removed = await svc.api('DELETE', '/post', { body: { id: tweet.json.id } });
    assert.deepEqual(removed.json.deletedOn, ['twitter'], JSON.stringify(removed.json));

    const failed = await svc.api('POST', '/post', { body: { post: `${fresh('Tweet')} [[fault:416]]`, platforms: ['twitter'] } });
    assert.equal(failed.json.code, 416);
    is419(await svc.api('PUT', '/post/retry', { body: { id: failed.json.id }, headers: none }));
    assert.equal((await svc.api('PUT', '/post/retry', { body: { id: failed.json.id } })).status, 200);
  });
});

describe('8. warning 518', () => {
  test("its feature is audioName (spec 7), and the reel publishes", async () => {
    const created = await svc.api('POST', '/post', {
      body: { post: fresh('Reel'), platforms: ['instagram'], mediaUrls: [`${svc.url}/sandbox/media/video-10s.mp4`], isVideo: true, instagramOptions: { audioConfiguration: { id: 1 }, audioName: 'song' } },
    });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    svc.clock.advance(60_000); // the reel's container finishes on the service clock
    const done = await waitForPost(svc, created.json.id, (p) => p.postIds.length > 0 || p.status === 'error');
    const entry = done.postIds[0];
    assert.ok(entry, JSON.stringify(done));
    assert.deepEqual(entry.warnings, [{ feature: 'audioName', code: 518 }]);
  });
});

describe('9. codes that were never produced', () => {
  for (const platform of ['facebook', 'instagram', 'threads'] as const) {
    test(`326 (Meta identity verification) on ${platform}: HTTP 403, no relink`, async () => {
      const media = platform === 'instagram' ? { mediaUrls: [`${svc.url}/sandbox/media/photo.jpg`] } : {};
      const created = await svc.api('POST', '/post', { body: { post: `${fresh('Unverified')} [[fault:326]]`, platforms: [platform], ...media } });
      assert.deepEqual([created.status, created.json.code, created.json.action], [403, 326, 'post'], JSON.stringify(created.json));
      assert.notEqual(created.json.errors[0].relink, true);
    });
  }
});

describe('10. quota', () => {
  test('a post due in the month it was scheduled in fails with 106 when the month is over its quota then', async () => {
    const own = await startPublishingService();
    try {
      await linkSandboxAccounts(own, ['facebook']);
      const later = await own.api('POST', '/post', { body: { post: 'Later today', platforms: ['facebook'], scheduleDate: '2026-11-22T18:00:00Z' } });
      assert.equal(later.json.status, 'scheduled', JSON.stringify(later.json));
      assert.equal((await own.api('POST', '/post', { body: { post: 'Right now', platforms: ['facebook'] } })).json.status, 'success');
      // The operator lowers the profile's quota below what the month has used (admin API: PUT /profiles/{id}/quota).
      await own.sql('INSERT INTO post_quotas (profile_id, monthly_post_quota) VALUES (?, ?)', [own.primaryProfile.id, 1]);
      own.clock.advance(7 * 60 * 60 * 1000);
      let row: Record<string, any> | undefined;
      for (let polls = 0; polls < 1000; polls++) {
        row = (await own.sql('SELECT p.status, pp.error FROM posts p JOIN post_platforms pp ON pp.post_id = p.id WHERE p.id = ?', [later.json.id])).rows[0];
        if (row && (row.status === 'success' || row.status === 'error')) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      assert.equal(row!.status, 'error', JSON.stringify(row));
      assert.equal(JSON.parse(row!.error).code, 106);
      assert.equal((await sandboxPostsFor(own, later.json.id, 'facebook')).length, 0);
    } finally {
      await own.close();
    }
  });
});

describe('11. twitter text is counted as X counts it', () => {
  test('bare domains count 23 each: a text over 280 that way goes out as a thread whose every part X accepts', async () => {
    const text = `${'a'.repeat(240)} foo.co.uk bar.io z${++n}`; // 288+ for X; 260 by a count that skips bare domains
    const created = await svc.api('POST', '/post', { body: { post: text, platforms: ['twitter'] } });
    assert.equal(created.json.status, 'success', JSON.stringify(created.json));
    const tweets = await sandboxPostsFor(svc, created.json.id, 'twitter');
    assert.equal(tweets.length, 2, 'a thread of two posts, not one post X refuses');
  });
});
