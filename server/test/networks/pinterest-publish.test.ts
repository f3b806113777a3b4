/**
 * The real pinterest adapter against the sandbox Pinterest API v5 of a real service on loopback, through
 * `POST /api/post`: image, multi-image and video pins (media registered, uploaded with the given form fields,
 * processed), the account's board found when none is given, aiDisclosures' 521 warning, faults classified,
 * reconcile by the board's recent pins, delete; and Pinterest's error answers classified one by one.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { PreparedState, PublishDone, PublishFailure } from '../../src/networks/publish-adapter.js';
import { classifyPinterestError } from '../../src/networks/pinterest/classify.js';
import { pinterestPublishAdapter as adapter } from '../../src/networks/pinterest/publish.js';
import type { PinterestAnswer } from '../../src/networks/pinterest/pinterest-api.js';
import { linkSandboxAccounts, sandboxPostsFor, startPublishingService } from '../publishing/publishing-fixtures.js';
import { linkSandboxAccount } from '../sandbox/sandbox-adapter-context.js';
import type { TestService } from '../support/test-service.js';

describe('pinterest adapter against the sandbox Pinterest API', () => {
  let svc: TestService;
  let n = 0;
  const fresh = (text: string) => `${text} #${++n}`;
  let photo: string;
  before(async () => {
    svc = await startPublishingService();
    await linkSandboxAccounts(svc, ['pinterest']);
    photo = `${svc.url}/sandbox/media/photo.jpg`;
  });
  after(() => svc.close());

  const post = (body: Record<string, unknown>) => svc.api('POST', '/post', { body: { platforms: ['pinterest'], ...body } });
  const errorOf = (json: Record<string, any>) => json.errors?.find((e: any) => e.platform === 'pinterest') ?? json;

  it('an image pin on the account board with title, link and alt text; the post URL shows it', async () => {
    const created = await post({ post: fresh('A pin'), mediaUrls: [photo], pinterestOptions: { title: 'Title', link: 'https://example.com/x', altText: 'a photo' } });
    assert.equal(created.json.status, 'success', JSON.stringify(created.json));
    const [row] = await sandboxPostsFor(svc, created.json.id, 'pinterest');
    const pin = JSON.parse(row.record);
    assert.deepEqual([pin.title, pin.link, pin.alt_text, pin.media_source.source_type], ['Title', 'https://example.com/x', 'a photo', 'image_url']);
    assert.equal((await fetch(created.json.postIds[0].postUrl)).status, 200);
  });

  it('multiple images and a video (registered, uploaded, processed) ', async () => {
    const many = await post({ post: fresh('Two'), mediaUrls: [photo, `${svc.url}/sandbox/media/photo.png`] });
    assert.equal(many.json.status, 'success', JSON.stringify(many.json));
    assert.equal(JSON.parse((await sandboxPostsFor(svc, many.json.id, 'pinterest'))[0].record).media_source.source_type, 'multiple_image_urls');
    const video = await post({ post: fresh('A video'), mediaUrls: [`${svc.url}/sandbox/media/video-10s.mp4`], isVideo: true, pinterestOptions: { thumbNail: photo } });
    assert.equal(video.json.status, 'success', JSON.stringify(video.json));
    const [row] = await sandboxPostsFor(svc, video.json.id, 'pinterest');
    assert.equal(JSON.parse(row.record).media_source.source_type, 'video_id');
    const uploaded = Buffer.from(await (await fetch(`${svc.url}${JSON.parse(row.media)[0].url}`)).arrayBuffer());
    const original = Buffer.from(await (await fetch(`${svc.url}/sandbox/media/video-10s.mp4`)).arrayBuffer());
    assert.ok(uploaded.equals(original));
  });

  it('a pin without media is refused at create time (101, pinterest named); an invalid aiDisclosures is warning 521', async () => {
    const bare = await post({ post: fresh('no media'), scheduleDate: '2027-01-01T10:00:00Z' });
    assert.deepEqual([bare.status, bare.json.code], [400, 101]);
    assert.match(bare.json.message, /pinterest/);
    const labelled = await post({ post: fresh('labelled'), mediaUrls: [photo], pinterestOptions: { aiDisclosures: ['MADE_UP'] } });
    assert.equal(labelled.json.status, 'success', JSON.stringify(labelled.json));
    assert.deepEqual(labelled.json.postIds[0].warnings, [{ feature: 'pinterestOptions.aiDisclosures', code: 521 }]);
  });

  it('faults: a wrong board, 140 aspect ratio, 401 relink, 429 retry', async () => {
    const board = await post({ post: fresh('wrong board'), mediaUrls: [photo], pinterestOptions: { boardId: '123' } });
    assert.equal(errorOf(board.json).code, 101);
    assert.match(errorOf(board.json).message, /boardId/);
    const ratio = await post({ post: fresh('[[fault:140]]'), mediaUrls: [photo] });
    assert.equal(errorOf(ratio.json).code, 140, JSON.stringify(ratio.json));
    const linked = await linkSandboxAccount(svc, 'pinterest');
    for (const [marker, code, retry, relink] of [
      ['401', 401, false, true],
      ['429', 429, true, false],
    ] as const) {
      const ctx = linked.context(`${svc.url}/sandbox/pinterest`, { text: fresh(`[[fault:${marker}]]`), mediaUrls: [photo] });
      const result = (await adapter.commit(ctx, (await adapter.prepare(ctx, null)) as PreparedState)) as PublishFailure;
      assert.deepEqual([result.code, result.retryAvailable, result.relink], [code, retry, relink], marker);
    }
  });

  it('reconcile finds the pin an interrupted commit made, and nothing when the commit never ran; delete removes it', async () => {
    const linked = await linkSandboxAccount(svc, 'pinterest');
    const base = `${svc.url}/sandbox/pinterest`;
    const ctx = linked.context(base, { text: fresh('made before the crash'), mediaUrls: [photo] });
    const prepared = (await adapter.prepare(ctx, null)) as PreparedState;
    const done = (await adapter.commit(ctx, prepared)) as PublishDone;
    assert.equal(done.kind, 'done', JSON.stringify(done));
    assert.equal(((await adapter.reconcile(ctx, prepared)) as PublishDone).id, done.id);
    const never = linked.context(base, { text: fresh('never sent'), mediaUrls: [photo] });
    assert.equal(await adapter.reconcile(never, (await adapter.prepare(never, null)) as PreparedState), null);
    assert.equal(await adapter.remove!(ctx, done.id), true);
    assert.equal(await adapter.reconcile(ctx, prepared), null);
  });
});

describe('classifyPinterestError on recorded Pinterest answers', () => {
  const answer = (status: number, json: Record<string, unknown>): PinterestAnswer => ({ status, json, headers: new Headers() });
  it('maps each answer to its code', () => {
    const cases: [PinterestAnswer, number, boolean, boolean][] = [
      [answer(401, { code: 2, message: 'Authentication failed.' }), 401, false, true],
      [answer(429, { code: 8, message: 'Rate limit exceeded. Please try again later.' }), 429, true, false],
      [answer(404, { code: 404, message: 'Board not found.' }), 101, false, false],
      [answer(400, { code: 1, message: 'Image aspect ratio is not supported.' }), 140, false, false],
      [answer(400, { code: 1, message: 'Sorry we could not fetch the image.' }), 164, false, false],
      [answer(503, { code: 503, message: 'Service unavailable' }), 500, true, false],
      [{ status: 0, headers: new Headers(), json: {}, transportError: 'ECONNRESET' }, 500, true, false],
      [answer(400, { code: 1, message: 'Invalid parameters.' }), 101, false, false],
    ];
    for (const [input, code, retry, relink] of cases) {
      const failure = classifyPinterestError(input);
      assert.deepEqual([failure.code, failure.retryAvailable, failure.relink], [code, retry, relink], JSON.stringify(input.json));
    }
  });
});
