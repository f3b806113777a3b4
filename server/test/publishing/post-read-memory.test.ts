/**
 * `GET /api/post/:id` and `GET /api/history` are kept in memory while nothing is committed (issue 31; SQLite:
 * post-read-answers.ts getAnswer/historyAnswer, core/db/read-memory.ts; PostgreSQL reads every time). These tests read
 * an answer first, so it is kept, then change what it shows, and require the very next read to show the change:
 * through the API (a post created, edited, paused, published, deleted) and from another connection (as another
 * process would: a post's notes, a first comment's outcome, the month's post count), on SQLite and, under
 * scripts/with-postgres.sh, PostgreSQL. Two profiles of one account read the same ids and history: each sees only
 * its own, before and after the other's answers were kept. A deleted profile and a removed key are refused at once.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { TestService } from '../support/test-service.js';
import { linkSandboxAccounts, startPublishingService, waitForPost } from './publishing-fixtures.js';

const HOUR = 60 * 60 * 1000;

let svc: TestService;
/** The user profile's Profile-Key header (the primary profile sends none). */
let other: Record<string, string>;
let n = 0;
const fresh = (label: string) => `${label} number ${++n} ${'abcdefghij'.slice(n % 10)}${n * 7919}`;
const inHours = (hours: number) => new Date(svc.clock() + hours * HOUR).toISOString().replace(/\.\d{3}Z$/, 'Z');

async function schedule(label: string, headers: Record<string, string> = {}, hours = 24): Promise<string> {
  // Each post a second after the last: history is newest first, and posts of the same millisecond tie.
  svc.clock.advance(1000);
  const created = await svc.api('POST', '/post', { body: { post: fresh(label), platforms: ['linkedin'], scheduleDate: inHours(hours) }, headers });
  assert.equal(created.status, 200, JSON.stringify(created.json));
  return created.json.id as string;
}

/** The same read twice (the second from memory on SQLite): both answers must be the same. */
async function readTwice(path: string, headers: Record<string, string> = {}) {
  const first = await svc.api('GET', path, { headers });
  const second = await svc.api('GET', path, { headers });
  assert.equal(second.status, first.status);
  assert.deepEqual(second.json, first.json);
  return first;
}

/** One read, answered 200 (on SQLite its answer is now kept). */
async function keep(path: string, headers: Record<string, string> = {}) {
  const read = await svc.api('GET', path, { headers });
  assert.equal(read.status, 200, JSON.stringify(read.json));
}

const historyIds = async (headers: Record<string, string> = {}, query = 'limit=10') => ((await readTwice(`/history?${query}`, headers)).json.history as { id: string }[]).map((entry) => entry.id);

before(async () => {
  svc = await startPublishingService({ plan: 'business' });
  await linkSandboxAccounts(svc, ['linkedin']);
  const profile = await svc.api('POST', '/profiles', { body: { title: 'Second profile' } });
  assert.equal(profile.status, 200, JSON.stringify(profile.json));
  other = { 'Profile-Key': profile.json.profileKey as string };
  await linkSandboxAccounts(svc, ['linkedin'], other['Profile-Key']);
});
after(() => svc?.close());

describe('post reads kept in memory', () => {
  test("two profiles reading the same post ids and history each see only their own, before and after the other's answers are kept", async () => {
    const mine = await schedule('Primary');
    const theirs = await schedule('User profile', other);
    for (let round = 0; round < 2; round++) {
      assert.equal((await readTwice(`/post/${mine}`)).json.id, mine);
      assert.equal((await readTwice(`/post/${mine}`, other)).status, 404);
      assert.equal((await readTwice(`/post/${theirs}`, other)).json.id, theirs);
      assert.equal((await readTwice(`/post/${theirs}`)).status, 404);
      const [primaryHistory, otherHistory] = [await historyIds(), await historyIds(other)];
      assert.ok(primaryHistory.includes(mine) && !primaryHistory.includes(theirs), JSON.stringify(primaryHistory));
      assert.ok(otherHistory.includes(theirs) && !otherHistory.includes(mine), JSON.stringify(otherHistory));
      assert.equal((await readTwice('/history?limit=10', other)).json.refId, (await svc.api('GET', `/post/${theirs}`, { headers: other })).json.refId);
      assert.notEqual((await readTwice('/history?limit=10')).json.refId, (await readTwice('/history?limit=10', other)).json.refId);
    }
  });

  test('a post created, edited, paused, published and deleted through the API is seen by the next read at once', async () => {
    const before = await historyIds();
    const id = await schedule('Lifecycle', {}, 1);
    assert.deepEqual(await historyIds(), [id, ...before].slice(0, 10), 'created');

    await readTwice(`/post/${id}`);
    assert.equal((await svc.api('PATCH', '/post', { body: { id, notes: 'edited' } })).status, 200);
    assert.equal((await svc.api('GET', `/post/${id}`)).json.notes, 'edited');
    assert.equal((await readTwice('/history?limit=10')).json.history[0].notes, 'edited');

    assert.equal((await svc.api('PATCH', '/post', { body: { id, scheduledPause: true } })).status, 200);
    assert.equal((await svc.api('GET', `/post/${id}`)).json.status, 'paused');
    assert.equal((await readTwice('/history?limit=10&status=paused')).json.history[0].id, id);
    assert.equal((await svc.api('PATCH', '/post', { body: { id, scheduledPause: false } })).status, 200);
    assert.equal((await readTwice(`/post/${id}`)).json.status, 'scheduled');
    assert.deepEqual(await historyIds({}, 'limit=10&status=paused'), []);

    // Published by the job worker when its time comes: waitForPost polls the read until it shows it.
    svc.clock.advance(HOUR + 1000);
    const published = await waitForPost(svc, id, (post) => post.status === 'success');
    assert.equal(published.postIds[0].status, 'success');
    assert.equal((await readTwice('/history?limit=10')).json.history[0].status, 'success');

    assert.equal((await svc.api('DELETE', '/post', { body: { id } })).status, 200);
    assert.equal((await svc.api('GET', `/post/${id}`)).json.status, 'deleted');
    assert.ok(!(await historyIds()).includes(id), 'a deleted post leaves the history');
  });

  test('a write from another connection (as another process) is seen by the next read at once', async () => {
    const id = await schedule('Elsewhere');
    await readTwice(`/post/${id}`);
    await historyIds();
    await svc.sql('UPDATE posts SET notes = ? WHERE id = ?', ['written elsewhere', id]);
    assert.equal((await svc.api('GET', `/post/${id}`)).json.notes, 'written elsewhere');
    assert.equal((await svc.api('GET', '/history?limit=10')).json.history[0].notes, 'written elsewhere');

    // A first comment's outcome recorded on the platform row.
    await svc.sql(`UPDATE post_platforms SET status = 'success', network_post_id = ?, post_url = ?, first_comment = ? WHERE post_id = ?`, [
      'urn:li:share:1',
      'https://www.linkedin.com/feed/update/urn:li:share:1',
      JSON.stringify({ status: 'success', id: 'c1' }),
      id,
    ]);
    const commented = (await svc.api('GET', `/post/${id}`)).json;
    assert.equal(commented.postIds[0]?.firstComment?.status, 'success', JSON.stringify(commented));
  });

  test("the month's post quota used up elsewhere refuses the next read with 106", async () => {
    const id = await schedule('Quota');
    await readTwice(`/post/${id}`);
    const month = new Date(svc.clock()).toISOString().slice(0, 7);
    const profileId = (await svc.sql('SELECT profile_id FROM posts WHERE id = ?', [id])).rows[0]!.profile_id as string;
    await svc.sql('UPDATE post_counts SET count = 1000000 WHERE profile_id = ? AND month = ?', [profileId, month]);
    const refused = await svc.api('GET', `/post/${id}`);
    assert.equal(refused.status, 429);
    assert.equal(refused.json.code, 106);
    await svc.sql('UPDATE post_counts SET count = 0 WHERE profile_id = ? AND month = ?', [profileId, month]);
    assert.equal((await svc.api('GET', `/post/${id}`)).status, 200);
  });

  test('a history window that slides with the clock drops a post as it leaves the window', async () => {
    const id = await schedule('Window', other);
    assert.equal((await historyIds(other, 'limit=10&lastDays=1'))[0], id);
    svc.clock.advance(24 * HOUR + 1000);
    assert.ok(!(await historyIds(other, 'limit=10&lastDays=1')).includes(id));
  });

  // Last: it deletes the user profile and removes the key. On PostgreSQL the key's check is part of the read's own
  // statement (publishing/routes.ts), so nothing of the caller is kept anywhere to go stale.
  test('a deleted profile and a removed API key are refused by the very next post and history read', async () => {
    const mine = await schedule('Before the key goes');
    const theirs = await schedule('Before the profile goes', other);
    // Read once so each answer is kept (not twice: an earlier test's posts fall due meanwhile and change history).
    await keep(`/post/${theirs}`, other);
    await keep('/history?limit=10', other);
    const deleted = await svc.api('DELETE', '/profiles', { headers: other });
    assert.equal(deleted.status, 200, JSON.stringify(deleted.json));
    assert.equal((await svc.api('GET', `/post/${theirs}`, { headers: other })).status, 404);
    const history = await svc.api('GET', '/history?limit=10', { headers: other });
    assert.equal(history.status, 404);
    assert.equal(history.json.code, 103);

    await keep(`/post/${mine}`);
    await keep('/history?limit=10');
    // From another connection, as the admin CLI would.
    assert.ok((await svc.sql('DELETE FROM api_keys')).changes >= 1);
    const refused = await svc.api('GET', `/post/${mine}`);
    assert.equal(refused.status, 401);
    assert.equal(refused.json.code, 102);
    assert.equal((await svc.api('GET', '/history?limit=10')).status, 401);
    assert.equal((await svc.api('GET', '/history?limit=0')).status, 401, "the key's refusal comes before the query's");
  });
});
