/**
 * Stock images through `POST /api/post` (spec 2.1's field, spelled `stockImages` here): `random`, a search term or
 * image ids become media URLs of the stock provider (by default the sandbox media host), checked and published like
 * any media URL; unknown ids are refused with 164 and the field named.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { withStockImages } from '../../src/publishing/media/stock-images.js';
import type { TestService } from '../support/test-service.js';
import { linkSandboxAccounts, sandboxPostsFor, startPublishingService, waitForPost } from '../publishing/publishing-fixtures.js';

let svc: TestService;
before(async () => {
  svc = await startPublishingService();
  await linkSandboxAccounts(svc, ['facebook']);
});
after(() => svc.close());

async function sentMedia(body: Record<string, unknown>): Promise<string[]> {
  const created = await svc.api('POST', '/post', { body: { platforms: ['facebook'], ...body } });
  assert.equal(created.status, 200, JSON.stringify(created.json));
  const post = created.json.status === 'success' ? created.json : await waitForPost(svc, created.json.id, (p) => p.status === 'success');
  assert.equal(post.status, 'success', JSON.stringify(post));
  const [facebook] = await sandboxPostsFor(svc, created.json.id, 'facebook');
  return (JSON.parse(facebook.media) as { url: string }[]).map((item) => item.url);
}

describe('stock images', () => {
  test('a search term publishes the matching stock image from the provider', async () => {
    assert.deepEqual(await sentMedia({ post: 'stock by term 9001', stockImages: 'ocean' }), [`${svc.url}/sandbox/media/stock/stock-sea.jpg`]);
  });

  test('image ids come after the post\'s own media URLs', async () => {
    const own = `${svc.url}/sandbox/media/photo.jpg`;
    assert.deepEqual(await sentMedia({ post: 'stock by id 9002', mediaUrls: [own], stockImages: ['stock-forest', 'stock-city'] }), [
      own,
      `${svc.url}/sandbox/media/stock/stock-forest.jpg`,
      `${svc.url}/sandbox/media/stock/stock-city.jpg`,
    ]);
  });

  test('random gives one catalogue image', async () => {
    const [url, ...rest] = await sentMedia({ post: 'stock at random 9003', stockImages: 'random' });
    assert.equal(rest.length, 0);
    assert.match(url!, /\/sandbox\/media\/stock\/stock-[a-z]+\.jpg$/);
  });

  test('unknown ids: 400 with 164 naming the field; a wrong type: 400 with the schema error', async () => {
    const unknown = await svc.api('POST', '/post', { body: { post: 'stock unknown 9004', platforms: ['facebook'], stockImages: ['stock-moon'] } });
    assert.equal(unknown.status, 400, JSON.stringify(unknown.json));
    assert.equal(unknown.json.status, 'error');
    assert.equal(unknown.json.code, 164);
    assert.match(unknown.json.message, /stock-moon/);
    assert.equal(unknown.json.details?.field, 'stockImages');
    const wrongType = await svc.api('POST', '/post', { body: { post: 'stock wrong 9005', platforms: ['facebook'], stockImages: 7 } });
    assert.equal(wrongType.status, 400, JSON.stringify(wrongType.json));
    assert.equal(wrongType.json.status, 'error');
  });

  test('per-platform media: the stock images join every list and default', () => {
    const merged = withStockImages({ mediaUrls: { twitter: ['https://a.example/t.jpg'] }, stockImages: ['stock-food'] }, { baseUrl: 'https://stock.example/', seed: 's' });
    assert.ok(merged.ok);
    assert.deepEqual(merged.request.mediaUrls, { twitter: ['https://a.example/t.jpg', 'https://stock.example/stock-food.jpg'], default: ['https://stock.example/stock-food.jpg'] });
  });
});
