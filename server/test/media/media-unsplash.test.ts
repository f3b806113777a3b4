/**
 * The `unsplash` post field (the public API's name for stock images) through `POST /api/post`, against the sandbox
 * Unsplash API on Unsplash's real paths: a search term, photo ids and `random` become media URLs, the photographer's
 * credit stays with the post, each used photo gets its download-tracking call (not on a dry run), and an unknown id
 * or a search without results is refused in the envelope (400, 164, the field named).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SANDBOX_UNSPLASH_KEY } from '../../src/publishing/media/unsplash.js';
import type { TestService } from '../support/test-service.js';
import { linkSandboxAccounts, sandboxPostsFor, startPublishingService, waitForPost } from '../publishing/publishing-fixtures.js';

let svc: TestService;
before(async () => {
  svc = await startPublishingService();
  await linkSandboxAccounts(svc, ['facebook']);
});
after(() => svc.close());

async function downloads(id: string): Promise<number> {
  const answer = await fetch(`${svc.url}/sandbox/unsplash/photos/${id}/statistics`, { headers: { Authorization: `Client-ID ${SANDBOX_UNSPLASH_KEY}` } });
  return ((await answer.json()) as { downloads: { total: number } }).downloads.total;
}

async function publish(body: Record<string, unknown>) {
  const created = await svc.api('POST', '/post', { body: { platforms: ['facebook'], ...body } });
  assert.equal(created.status, 200, JSON.stringify(created.json));
  const post = created.json.status === 'success' ? created.json : await waitForPost(svc, created.json.id, (p) => p.status === 'success');
  assert.equal(post.status, 'success', JSON.stringify(post));
  const [facebook] = await sandboxPostsFor(svc, created.json.id, 'facebook');
  return { created: created.json, media: (JSON.parse(facebook.media) as { url: string }[]).map((item) => item.url) };
}

describe('unsplash', () => {
  test('a search term publishes the first matching photo, keeps its credit and tracks the download', async () => {
    const before = await downloads('stock-sea');
    const { created, media } = await publish({ post: 'unsplash by term 7001', unsplash: 'ocean' });
    assert.deepEqual(media, [`${svc.url}/sandbox/media/stock/stock-sea.jpg`]);
    assert.equal(created.unsplash.length, 1);
    const [credit] = created.unsplash;
    assert.equal(credit.id, 'stock-sea');
    assert.equal(credit.text, `Photo by ${credit.photographer} on Unsplash`);
    assert.match(credit.photographerUrl, /utm_source=[^&]+&utm_medium=referral$/);
    assert.match(credit.photoUrl, /utm_medium=referral$/);
    const got = await svc.api('GET', `/post/${created.id}`);
    assert.deepEqual(got.json.unsplash, created.unsplash);
    assert.equal(await downloads('stock-sea'), before + 1);
  });

  test('photo ids come after the post\'s own media URLs, each tracked once', async () => {
    const own = `${svc.url}/sandbox/media/photo.jpg`;
    const before = await downloads('stock-forest');
    const { created, media } = await publish({ post: 'unsplash by id 7002', mediaUrls: [own], unsplash: ['stock-forest', 'stock-city'] });
    assert.deepEqual(media, [own, `${svc.url}/sandbox/media/stock/stock-forest.jpg`, `${svc.url}/sandbox/media/stock/stock-city.jpg`]);
    assert.deepEqual(created.unsplash.map((c: { id: string }) => c.id), ['stock-forest', 'stock-city']);
    assert.equal(await downloads('stock-forest'), before + 1);
  });

  test('random gives one photo', async () => {
    const { media, created } = await publish({ post: 'unsplash at random 7003', unsplash: 'random' });
    assert.equal(media.length, 1);
    assert.match(media[0]!, /\/sandbox\/media\/stock\/stock-[a-z]+\.jpg$/);
    assert.equal(created.unsplash.length, 1);
  });

  test('an unknown id and an empty search: 400, code 164, the field named; nothing stored', async () => {
    const unknown = await svc.api('POST', '/post', { body: { post: 'unsplash unknown 7004', platforms: ['facebook'], unsplash: ['stock-sea', 'Zz9NoSuchPhoto'] } });
    assert.equal(unknown.status, 400, JSON.stringify(unknown.json));
    assert.deepEqual([unknown.json.status, unknown.json.action, unknown.json.code], ['error', 'post', 164]);
    assert.match(unknown.json.message, /Zz9NoSuchPhoto/);
    assert.equal(unknown.json.details.field, 'unsplash');
    const empty = await svc.api('POST', '/post', { body: { post: 'unsplash nothing 7005', platforms: ['facebook'], unsplash: 'zebra' } });
    assert.equal(empty.status, 400, JSON.stringify(empty.json));
    assert.deepEqual([empty.json.status, empty.json.action, empty.json.code], ['error', 'post', 164]);
    assert.match(empty.json.message, /No Unsplash photo matches "zebra"/);
    const wrongType = await svc.api('POST', '/post', { body: { post: 'unsplash wrong 7006', platforms: ['facebook'], unsplash: 7 } });
    assert.deepEqual([wrongType.status, wrongType.json.status], [400, 'error']);
    const stored = await svc.sql("SELECT COUNT(*) AS n FROM posts WHERE request LIKE '%unsplash%' AND (request LIKE '%7004%' OR request LIKE '%7005%')");
    assert.equal(Number(stored.rows[0]!.n), 0);
  });

  test('a dry run (POST /api/validate/post) resolves the photos but tracks no download', async () => {
    const before = await downloads('stock-desert');
    const checked = await svc.api('POST', '/validate/post', { body: { post: 'unsplash dry run 7007', platforms: ['facebook'], unsplash: ['stock-desert'] } });
    assert.equal(checked.status, 200, JSON.stringify(checked.json));
    assert.equal(await downloads('stock-desert'), before);
  });

  test('the sandbox answers as Unsplash does without the access key', async () => {
    const answer = await fetch(`${svc.url}/sandbox/unsplash/photos/random`);
    assert.equal(answer.status, 401);
    assert.deepEqual(await answer.json(), { errors: ['OAuth error: The access token is invalid'] });
  });
});
