/**
 * The youtube channel endpoints (spec 4.2, 4.3) on a real service on loopback, through the youtube adapter against
 * the sandbox Data API: the watermark is uploaded as multipart/related and stored by the sandbox; 140 (ratio), 307
 * (type), 250 (another channel), 101 (body, region); categories with `assignable`, the plan gate, and the
 * non-assignable category refused at upload.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setYoutubeWatermark } from '../../src/networks/youtube/channel-api.js';
import type { PublishFailure } from '../../src/networks/publish-adapter.js';
import type { TestService } from '../support/test-service.js';
import { startPublishingService } from '../publishing/publishing-fixtures.js';
import { linkSandboxAccount, TINY_PNG } from '../sandbox/sandbox-adapter-context.js';

const timing = { timingType: 'offsetFromEnd', offsetMs: 15_000, durationMs: 10_000 };

describe('youtube watermark and categories', () => {
  let svc: TestService;
  let linked: Awaited<ReturnType<typeof linkSandboxAccount>>;
  before(async () => {
    svc = await startPublishingService();
    linked = await linkSandboxAccount(svc, 'youtube');
  });
  after(() => svc.close());

  const media = (name: string) => `${svc.url}/sandbox/media/${name}`;
  const watermark = async () =>
    (await svc.sql("SELECT status, record FROM sandbox_posts WHERE platform = 'youtube:watermark' AND network_id = ?", [linked.account.accountId])).rows[0];

  it('sets the watermark: the image and timing reach the channel, the answer echoes the request', async () => {
    const set = await svc.api('POST', '/post/youTubeWatermark', { body: { mediaUrls: [media('photo.png'), media('photo.jpg')], ...timing } });
    assert.equal(set.status, 200, JSON.stringify(set.json));
    assert.deepEqual(set.json, { status: 'success', message: set.json.message, mediaUrls: [media('photo.png'), media('photo.jpg')], ...timing });
    const stored = await watermark();
    assert.equal(stored?.status, 'published');
    const record = JSON.parse(stored!.record);
    assert.deepEqual(record.timing, { type: 'offsetFromEnd', offsetMs: 15_000, durationMs: 10_000 });
    assert.deepEqual([record.position.cornerPosition, record.imageType], ['bottomRight', 'image/png']);
    const removed = await svc.api('DELETE', '/post/youTubeWatermark');
    assert.equal(removed.status, 200, JSON.stringify(removed.json));
    assert.equal((await watermark())?.status, 'deleted');
  });

  it('140 for a wide or tall image (the message gives its ratio), 307 for WebP, GIF or a video; nothing set', async () => {
    for (const [name, code, text] of [['wide.jpg', 140, /3\.00/], ['tall.jpg', 140, /0\.40/], ['photo.webp', 307, /image\/webp/], ['photo.gif', 307, /image\/gif/], ['video-3s.mp4', 307, /video\/mp4/]] as const) {
      const answer = await svc.api('POST', '/post/youTubeWatermark', { body: { mediaUrls: [media(name)], ...timing } });
      assert.equal(answer.status, 400, name);
      assert.deepEqual([answer.json.status, answer.json.action, answer.json.code], ['error', 'post', code], `${name}: ${JSON.stringify(answer.json)}`);
      assert.match(answer.json.message, text, name);
    }
    assert.notEqual((await watermark())?.status, 'published');
  });

  it('101 for a bad body: missing fields, unknown timing, zero or fractional milliseconds, no URL, unknown field', async () => {
    const bodies: unknown[] = [
      {},
      { mediaUrls: [media('photo.png')], timingType: 'middle', offsetMs: 1, durationMs: 1 },
      { mediaUrls: [media('photo.png')], timingType: 'offsetFromStart', offsetMs: 0, durationMs: 1 },
      { mediaUrls: [media('photo.png')], timingType: 'offsetFromStart', offsetMs: 1.5, durationMs: 1 },
      { mediaUrls: [media('photo.png')], timingType: 'offsetFromStart', offsetMs: '1', durationMs: 1 },
      { mediaUrls: [], ...timing },
      { mediaUrls: [media('photo.png')], ...timing, corner: 'topLeft' },
    ];
    for (const body of bodies) {
      const answer = await svc.api('POST', '/post/youTubeWatermark', { body });
      assert.deepEqual([answer.status, answer.json.code, answer.json.status], [400, 101, 'error'], JSON.stringify(body));
    }
  });

  it('250 when youtube refuses to brand the channel (the token cannot manage the channel named)', async () => {
    const ctx = linked.context(`${svc.url}/sandbox/youtube`);
    const other = { ...ctx, account: { ...ctx.account, accountId: 'UC-someone-else' } };
    const refused = (await setYoutubeWatermark(other, { bytes: TINY_PNG, contentType: 'image/png' }, { type: 'offsetFromStart', offsetMs: 1, durationMs: 1 })) as PublishFailure;
    assert.deepEqual([refused.kind, refused.code, refused.relink, refused.details?.reason], ['failed', 250, false, 'forbidden']);
    const revoked = { ...ctx, account: { ...ctx.account, tokens: async () => ({ accessToken: 'revoked' }) } };
    const relink = (await setYoutubeWatermark(revoked, { bytes: TINY_PNG, contentType: 'image/png' }, { type: 'offsetFromStart', offsetMs: 1, durationMs: 1 })) as PublishFailure;
    assert.deepEqual([relink.code, relink.relink], [401, true]);
  });

  it('categories of a region with assignable; lower case accepted; 101 for a bad region', async () => {
    const answer = await svc.api('GET', '/post/youtubeCategories/us');
    assert.equal(answer.status, 200, JSON.stringify(answer.json));
    assert.equal(answer.json.region, 'US');
    const byId = new Map(answer.json.categories.map((category: { id: string }) => [category.id, category]));
    assert.deepEqual(byId.get('22'), { id: '22', title: 'People & Blogs', assignable: true });
    assert.equal((byId.get('30') as { assignable: boolean }).assignable, false);
    for (const region of ['USA', 'U1', 'ZZ', 'QQ', '%00%00']) {
      const bad = await svc.api('GET', `/post/youtubeCategories/${region}`);
      assert.deepEqual([bad.status, bad.json.code, bad.json.action], [400, 101, 'request'], region);
    }
  });

  it('a non-assignable categoryId fails the youtube post with 101 naming the category', async () => {
    const created = await svc.api('POST', '/post', {
      body: { post: 'd', platforms: ['youtube'], mediaUrls: [media('video-3s.mp4')], isVideo: true, youTubeOptions: { title: 'Movies are not assignable', categoryId: 30 } },
    });
    // Refused at create, before anything is stored (issue 27: not first at publication).
    assert.deepEqual([created.status, created.json.status, created.json.code], [400, 'error', 101], JSON.stringify(created.json));
    const error = created.json.details.errors[0];
    assert.deepEqual([error.code, error.platform], [101, 'youtube'], JSON.stringify(error));
    assert.match(error.message, /category/i);
  });
});

describe('youtube categories: the plan gate', () => {
  let svc: TestService;
  before(async () => {
    svc = await startPublishingService({ plan: 'free' });
    await linkSandboxAccount(svc, 'youtube');
  });
  after(() => svc.close());

  it('a free plan gets 403 with code 104', async () => {
    const answer = await svc.api('GET', '/post/youtubeCategories/US');
    assert.deepEqual([answer.status, answer.json.code, answer.json.status], [403, 104, 'error']);
  });
});
