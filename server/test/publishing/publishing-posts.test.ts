/**
 * The posts API on the real service (loopback HTTP, real database, the sandbox networks on the service itself):
 * every transition of spec section 3, delete, retry, history, duplicates and the `scheduled` webhook's queueing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { TestService } from '../support/test-service.js';
import { linkSandboxAccounts, sandboxPostsFor, startPublishingService, waitForPost } from './publishing-fixtures.js';

const HOUR = 60 * 60 * 1000;
/** The test clock starts at 2026-11-22T12:00:00Z. */
const TOMORROW = '2026-11-23T12:00:00Z';
const YESTERDAY = '2026-11-21T12:00:00Z';

let svc: TestService;
let n = 0;
/** A text no earlier test posted, so the duplicate rule (137) stays out of the way. */
const fresh = (label: string) => `${label} number ${++n} ${'abcdefghij'.slice(n % 10)}${n * 7919}`;

before(async () => {
  svc = await startPublishingService();
  await linkSandboxAccounts(svc, ['twitter', 'facebook', 'tiktok', 'pinterest', 'linkedin', 'bluesky', 'telegram']);
});
after(() => svc.close());

describe('create', () => {
  test('an immediate post publishes on every platform, each exactly once on the network, and answers postIds', async () => {
    const created = await svc.api('POST', '/post', { body: { post: fresh('Now'), platforms: ['twitter', 'facebook'] } });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    assert.equal(created.json.status, 'success');
    assert.deepEqual(created.json.errors, []);
    assert.deepEqual(created.json.postIds.map((p: any) => [p.platform, p.status]).sort(), [['facebook', 'success'], ['twitter', 'success']]);
    for (const entry of created.json.postIds) assert.match(entry.postUrl, /^http:\/\/127\.0\.0\.1:\d+\/sandbox\/(net|facebook|twitter)\//);
    assert.equal(created.json.refId, svc.primaryProfile.refId);
    for (const platform of ['twitter', 'facebook'] as const) assert.equal((await sandboxPostsFor(svc, created.json.id, platform)).length, 1);
    const got = await svc.api('GET', `/post/${created.json.id}`);
    assert.equal(got.json.status, 'success');
    assert.equal(got.json.type, 'now');
  });

  test('bluesky and telegram publish through their own adapters (XRPC, Bot API) on their sandboxes', async () => {
    const created = await svc.api('POST', '/post', { body: { post: fresh('Own adapters'), platforms: ['bluesky', 'telegram'] } });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    assert.equal(created.json.status, 'success', JSON.stringify(created.json));
    const urls = Object.fromEntries(created.json.postIds.map((p: any) => [p.platform, p.postUrl]));
    assert.match(urls.bluesky, /\/sandbox\/profile\/.+\/post\//);
    assert.match(urls.telegram, /\/sandbox\/telegram\/c\//);
  });

  test('rich text and line breaks reach the network mapped (bold to Unicode, breaks as U+2063 + LF)', async () => {
    const created = await svc.api('POST', '/post', { body: { post: `<b>Bold</b> ${fresh('styled')}\nnext line`, platforms: ['facebook'] } });
    assert.equal(created.json.status, 'success', JSON.stringify(created.json));
    const [row] = await sandboxPostsFor(svc, created.json.id, 'facebook');
    assert.ok(!row.text.includes('<b>') && !row.text.startsWith('Bold') && row.text.includes(' styled number'), row.text);
    assert.ok(row.text.includes('\u2063\nnext line'), JSON.stringify(row.text));
  });

  test('tiktok stays pending until processing ends, then succeeds (confirm job on the service clock)', async () => {
    const created = await svc.api('POST', '/post', { body: { post: fresh('Clip'), platforms: ['tiktok'], mediaUrls: [`${svc.url}/sandbox/media/video-10s.mp4`], isVideo: true } });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    assert.equal(created.json.status, 'pending');
    assert.equal(created.json.postIds[0].id, 'pending');
    svc.clock.advance(60_000);
    const done = await waitForPost(svc, created.json.id, (post) => post.status === 'success');
    assert.notEqual(done.postIds[0].id, 'pending');
    assert.equal((await sandboxPostsFor(svc, created.json.id, 'tiktok')).length, 1);
  });

  test('immediate: a platform failing validation reports its error and the others publish', async () => {
    const text = `${fresh('Long')} ${'x'.repeat(600)}`; // over pinterest's 500, fine for facebook
    const created = await svc.api('POST', '/post', { body: { post: text, platforms: ['facebook', 'pinterest'] } });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    assert.equal(created.json.status, 'error');
    assert.deepEqual(created.json.postIds.map((p: any) => p.platform), ['facebook']);
    assert.equal(created.json.errors.length, 1);
    assert.equal(created.json.errors[0].platform, 'pinterest');
    assert.equal(created.json.errors[0].code, 101);
    assert.equal((await sandboxPostsFor(svc, created.json.id, 'pinterest')).length, 0);
  });

  test('scheduled: one platform failing pre-validation rejects the whole request and creates nothing', async () => {
    const before = (await svc.sql('SELECT COUNT(*) AS n FROM posts')).rows[0]!.n;
    const text = `${fresh('Long')} ${'x'.repeat(600)}`;
    const created = await svc.api('POST', '/post', { body: { post: text, platforms: ['facebook', 'pinterest'], scheduleDate: TOMORROW } });
    assert.equal(created.status, 400);
    assert.equal(created.json.status, 'error');
    assert.equal(created.json.code, 101);
    assert.equal(created.json.details.errors[0].platform, 'pinterest');
    assert.equal((await svc.sql('SELECT COUNT(*) AS n FROM posts')).rows[0]!.n, before);
  });

  test('a text that would need more than 30 thread posts gives 275', async () => {
    const words = 'lorem ipsum '.repeat(834); // 10,008 characters: 37 parts of at most 275
    const created = await svc.api('POST', '/post', { body: { post: words, platforms: ['twitter'] } });
    assert.equal(created.status, 400, JSON.stringify(created.json));
    assert.equal(created.json.code, 275);
  });
});

describe('states (spec 3)', () => {
  test('scheduled in the future: scheduled, then published by the worker once the service clock passes the date', async () => {
    const at = new Date(svc.clock() + 2 * HOUR).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const created = await svc.api('POST', '/post', { body: { post: fresh('Later'), platforms: ['facebook'], scheduleDate: at } });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    assert.equal(created.json.status, 'scheduled');
    assert.equal(created.json.scheduleDate, at);
    assert.equal((await svc.api('GET', `/post/${created.json.id}`)).json.status, 'scheduled');
    svc.clock.advance(2 * HOUR + 1000);
    const done = await waitForPost(svc, created.json.id, (post) => post.status === 'success');
    assert.equal(done.type, 'schedule');
    assert.equal((await sandboxPostsFor(svc, created.json.id, 'facebook')).length, 1);
  });

  test('a scheduleDate in the past is sent at once', async () => {
    const created = await svc.api('POST', '/post', { body: { post: fresh('Past'), platforms: ['facebook'], scheduleDate: YESTERDAY } });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    assert.equal(created.json.status, 'success');
  });

  test('approval: held, then approved with a future date → scheduled; approved with a past date → published at once', async () => {
    const future = new Date(svc.clock() + 3 * HOUR).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const held = await svc.api('POST', '/post', { body: { post: fresh('Held'), platforms: ['facebook'], requiresApproval: true, scheduleDate: future, notes: 'ask Ada' } });
    assert.equal(held.json.status, 'awaiting approval', JSON.stringify(held.json));
    const approved = await svc.api('PATCH', '/post', { body: { id: held.json.id, approved: true } });
    assert.equal(approved.status, 200, JSON.stringify(approved.json));
    assert.equal(approved.json.postStatus, 'scheduled');
    assert.equal(approved.json.notes, 'ask Ada');

    const heldNow = await svc.api('POST', '/post', { body: { post: fresh('Held now'), platforms: ['facebook'], requiresApproval: true } });
    assert.equal(heldNow.json.status, 'awaiting approval');
    assert.equal((await sandboxPostsFor(svc, heldNow.json.id, 'facebook')).length, 0);
    const released = await svc.api('PATCH', '/post', { body: { id: heldNow.json.id, approved: true } });
    assert.equal(released.status, 200, JSON.stringify(released.json));
    await waitForPost(svc, heldNow.json.id, (post) => post.status === 'success');
  });

  test('pause: a paused post is not sent when due; unpausing after its date sends it at once; unpausing before keeps it scheduled', async () => {
    const at = new Date(svc.clock() + HOUR).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const created = await svc.api('POST', '/post', { body: { post: fresh('Paused'), platforms: ['facebook'], scheduleDate: at } });
    const paused = await svc.api('PATCH', '/post', { body: { id: created.json.id, scheduledPause: true } });
    assert.equal(paused.json.postStatus, 'paused', JSON.stringify(paused.json));
    svc.clock.advance(HOUR + 1000);
    // Every due job has been claimed once the open-jobs count of this post is zero; the post must still be paused.
    const open = await svc.sql(`SELECT COUNT(*) AS n FROM jobs WHERE subject = ? AND done_at IS NULL AND failed_at IS NULL`, [created.json.id]);
    assert.equal(Number(open.rows[0]!.n), 0);
    assert.equal((await svc.api('GET', `/post/${created.json.id}`)).json.status, 'paused');
    assert.equal((await sandboxPostsFor(svc, created.json.id, 'facebook')).length, 0);
    const unpaused = await svc.api('PATCH', '/post', { body: { id: created.json.id, scheduledPause: false } });
    assert.equal(unpaused.status, 200, JSON.stringify(unpaused.json));
    await waitForPost(svc, created.json.id, (post) => post.status === 'success');

    const later = new Date(svc.clock() + 5 * HOUR).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const second = await svc.api('POST', '/post', { body: { post: fresh('Pause early'), platforms: ['facebook'], scheduleDate: later } });
    await svc.api('PATCH', '/post', { body: { id: second.json.id, scheduledPause: true } });
    const back = await svc.api('PATCH', '/post', { body: { id: second.json.id, scheduledPause: false } });
    assert.equal(back.json.postStatus, 'scheduled');
  });

  test('only posts not yet sent can be changed', async () => {
    const created = await svc.api('POST', '/post', { body: { post: fresh('Sent'), platforms: ['facebook'] } });
    const change = await svc.api('PATCH', '/post', { body: { id: created.json.id, notes: 'too late' } });
    assert.equal(change.status, 400);
    assert.equal(change.json.code, 101);
  });
});

describe('delete, retry, history', () => {
  test('deleting a scheduled post cancels it: it is never sent', async () => {
    const at = new Date(svc.clock() + HOUR).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const created = await svc.api('POST', '/post', { body: { post: fresh('Cancel'), platforms: ['facebook'], scheduleDate: at } });
    const removed = await svc.api('DELETE', '/post', { body: { id: created.json.id } });
    assert.equal(removed.status, 200, JSON.stringify(removed.json));
    assert.equal(removed.json.status, 'success');
    svc.clock.advance(HOUR + 1000);
    const open = await svc.sql(`SELECT COUNT(*) AS n FROM jobs WHERE subject = ? AND done_at IS NULL AND failed_at IS NULL`, [created.json.id]);
    assert.equal(Number(open.rows[0]!.n), 0);
    assert.equal((await sandboxPostsFor(svc, created.json.id, 'facebook')).length, 0);
    assert.equal((await svc.api('GET', `/post/${created.json.id}`)).json.status, 'deleted');
  });

  test('deleting a published post deletes it on the network', async () => {
    const created = await svc.api('POST', '/post', { body: { post: fresh('Remove'), platforms: ['facebook', 'linkedin'] } });
    const removed = await svc.api('DELETE', '/post', { body: { bulk: [created.json.id] } });
    assert.equal(removed.status, 200, JSON.stringify(removed.json));
    assert.deepEqual(removed.json.posts[0].deletedOn.sort(), ['facebook', 'linkedin']);
    for (const platform of ['facebook', 'linkedin'] as const) {
      const [row] = await sandboxPostsFor(svc, created.json.id, platform);
      assert.notEqual(row.deleted_at, null);
    }
    const again = await svc.api('DELETE', '/post', { body: { id: created.json.id } });
    assert.equal(again.status, 404);
  });

  test('retry: only from error, once; it resends to the failed platforms only', async () => {
    const created = await svc.api('POST', '/post', { body: { post: { default: fresh('Retry'), linkedin: `${fresh('Retry li')} [[fault:503]]` }, platforms: ['facebook', 'linkedin'] } });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    const failed = await waitForPost(svc, created.json.id, (post) => post.status === 'error');
    assert.equal(failed.errors[0].platform, 'linkedin');
    assert.equal((await svc.api('PUT', '/post/retry', { body: { id: created.json.id } })).status, 200);
    const again = await waitForPost(svc, created.json.id, (post) => post.status === 'error');
    assert.equal(again.retried, true);
    assert.equal((await sandboxPostsFor(svc, created.json.id, 'facebook')).length, 1);
    const second = await svc.api('PUT', '/post/retry', { body: { id: created.json.id } });
    assert.equal(second.status, 400);
    const ok = await svc.api('POST', '/post', { body: { post: fresh('Fine'), platforms: ['facebook'] } });
    assert.equal((await svc.api('PUT', '/post/retry', { body: { id: ok.json.id } })).status, 400);
  });

  test('history lists the profile\'s posts with its filters; deleted ones only with status=deleted', async () => {
    const all = await svc.api('GET', '/history?limit=1000&lastDays=0');
    assert.equal(all.status, 200, JSON.stringify(all.json));
    assert.ok(all.json.history.length > 5);
    assert.ok(all.json.history.every((post: any) => post.status !== 'deleted'));
    // Each entry carries its own platforms' results (read for the whole page at once), as GET /post/:id has them.
    assert.ok(all.json.history.some((post: any) => post.postIds.length > 0));
    for (const entry of all.json.history) assert.deepEqual(entry, (await svc.api('GET', `/post/${entry.id}`)).json);
    const deleted = await svc.api('GET', '/history?status=deleted');
    assert.ok(deleted.json.history.length >= 1);
    assert.ok(deleted.json.history.every((post: any) => post.status === 'deleted'));
    const tiktok = await svc.api('GET', '/history?platforms=tiktok');
    assert.ok(tiktok.json.history.every((post: any) => post.platforms.includes('tiktok')));
    assert.equal((await svc.api('GET', '/history?platforms=myspace')).json.code, 163);
    assert.equal((await svc.api('GET', '/history?limit=5000')).status, 400);
    assert.equal((await svc.api('GET', '/history?colour=red')).json.code, 101);
  });
});

describe('rules', () => {
  test('duplicates: the same text on the same platform within 24 h gives 137; pinterest is not checked; after 24 h it passes', async () => {
    const text = fresh('Twice');
    // A pin needs media (pinterest's real adapter refuses a text-only pin).
    const mediaUrls = [`${svc.url}/sandbox/media/photo.jpg`];
    assert.equal((await svc.api('POST', '/post', { body: { post: text, platforms: ['facebook', 'pinterest'], mediaUrls } })).json.status, 'success');
    const dup = await svc.api('POST', '/post', { body: { post: `  ${text.toUpperCase()} `, platforms: ['facebook', 'pinterest'], mediaUrls } });
    assert.equal(dup.status, 200, JSON.stringify(dup.json));
    assert.equal(dup.json.errors[0].platform, 'facebook');
    assert.equal(dup.json.errors[0].code, 137);
    assert.deepEqual(dup.json.postIds.map((p: any) => p.platform), ['pinterest']);
    // A later-scheduled post counts too, within 24 h either side of its own date.
    const far = new Date(svc.clock() + 23 * HOUR).toISOString().replace(/\.\d{3}Z$/, 'Z');
    assert.equal((await svc.api('POST', '/post', { body: { post: text, platforms: ['facebook'], scheduleDate: far } })).json.code, 137);
    const farther = new Date(svc.clock() + 25 * HOUR).toISOString().replace(/\.\d{3}Z$/, 'Z');
    assert.equal((await svc.api('POST', '/post', { body: { post: text, platforms: ['facebook'], scheduleDate: farther } })).json.status, 'scheduled');
  });

  test('a first comment is posted after the post, once, before the answer (which carries its outcome)', async () => {
    const created = await svc.api('POST', '/post', { body: { post: fresh('With comment'), platforms: ['facebook'], firstComment: { comment: 'First!' } } });
    assert.equal(created.json.status, 'success', JSON.stringify(created.json));
    assert.equal(created.json.postIds[0].firstComment.status, 'success', JSON.stringify(created.json));
    const [row] = await sandboxPostsFor(svc, created.json.id, 'facebook');
    const { rows } = await svc.sql('SELECT * FROM sandbox_comments WHERE post_id = ?', [row.id]);
    assert.equal(rows.length, 1);
  });

  test('shortenLinks replaces links with the service\'s own /s/ links, which redirect', async () => {
    const created = await svc.api('POST', '/post', { body: { post: `${fresh('Link')} https://example.com/a?b=1`, platforms: ['facebook'], shortenLinks: true } });
    assert.equal(created.json.status, 'success', JSON.stringify(created.json));
    const [row] = await sandboxPostsFor(svc, created.json.id, 'facebook');
    const short = /http:\/\/127\.0\.0\.1:\d+\/s\/[A-Za-z0-9_-]+/.exec(row.text)?.[0];
    assert.ok(short, row.text);
    const redirect = await fetch(short, { redirect: 'manual' });
    assert.equal(redirect.status, 302);
    assert.equal(redirect.headers.get('location'), 'https://example.com/a?b=1');
  });

  test('autoRepost creates the series; history filters by autoRepostId; deleting the series cancels its future posts', async () => {
    const created = await svc.api('POST', '/post', { body: { post: fresh('Series'), platforms: ['facebook'], autoRepost: { repeat: 2, days: 3 } } });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    assert.ok(created.json.autoRepostId);
    assert.equal(created.json.autoRepost.length, 2);
    const series = await svc.api('GET', `/history?autoRepostId=${created.json.autoRepostId}`);
    assert.equal(series.json.history.length, 3);
    const removed = await svc.api('DELETE', '/post', { body: { autoRepostId: created.json.autoRepostId } });
    assert.equal(removed.json.posts.length, 3);
    assert.equal((await svc.api('GET', `/history?autoRepostId=${created.json.autoRepostId}`)).json.history.length, 0);
  });
});
