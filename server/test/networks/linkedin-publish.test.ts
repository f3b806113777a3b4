/**
 * The real linkedin adapter against the sandbox LinkedIn REST API of a real service on loopback, through
 * `POST /api/post`: versioned headers, text escaped in the "little text format" (reaches the member intact), image,
 * multi-image and video upload sessions, 119 / 401 / 137 classified, reconcile by recent posts, delete; and
 * LinkedIn's recorded error bodies classified one by one (119, 401, 137, 429, 426, 475, 524).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { PreparedState, PublishDone } from '../../src/networks/publish-adapter.js';
import { classifyLinkedInError, classifyLinkedInRefresh } from '../../src/networks/linkedin/classify.js';
import { escapeLittleText, readLittleText } from '../../src/networks/linkedin/little-text.js';
import { linkedinPublishAdapter as adapter } from '../../src/networks/linkedin/publish.js';
import { LINKEDIN_VERSION, type LinkedInAnswer } from '../../src/networks/linkedin/rest-api.js';
import { linkSandboxAccounts, sandboxPostsFor, startPublishingService } from '../publishing/publishing-fixtures.js';
import { linkSandboxAccount } from '../sandbox/sandbox-adapter-context.js';
import type { TestService } from '../support/test-service.js';

describe('linkedin adapter against the sandbox LinkedIn API', () => {
  let svc: TestService;
  let n = 0;
  const fresh = (text: string) => `${text} #${++n}`;
  before(async () => {
    svc = await startPublishingService();
    await linkSandboxAccounts(svc, ['linkedin']);
  });
  after(() => svc.close());

  const post = (body: Record<string, unknown>) => svc.api('POST', '/post', { body: { platforms: ['linkedin'], ...body } });

  it('text with reserved characters and hashtags reaches the member intact; the post URL shows it', async () => {
    const text = fresh('Launch (beta) <today> [v2] @team *bold* _x_ ~y~ {a|b} \\ path #LinkedIn #ship_it');
    const created = await post({ post: text });
    assert.equal(created.json.status, 'success', JSON.stringify(created.json));
    const entry = created.json.postIds[0];
    assert.match(entry.id, /^urn:li:share:\d+$/);
    const [row] = await sandboxPostsFor(svc, created.json.id, 'linkedin');
    assert.equal(row.text, text);
    assert.match(JSON.parse(row.record).commentary, /\{hashtag\|\\#\|LinkedIn\}/);
    const page = await fetch(entry.postUrl);
    assert.equal(page.status, 200);
  });

  it('unescaped text would be cut where LinkedIn stops reading it (why the escaping matters)', () => {
    assert.deepEqual(readLittleText('before (after)'), { text: 'before ', complete: false });
    assert.deepEqual(readLittleText(escapeLittleText('before (after) #tag')), { text: 'before (after) #tag', complete: true });
  });

  it('one image, several images (multiImage) and a video through the upload sessions', async () => {
    const image = await post({ post: fresh('one image'), mediaUrls: [`${svc.url}/sandbox/media/photo.jpg`] });
    assert.equal(image.json.status, 'success', JSON.stringify(image.json));
    const [imageRow] = await sandboxPostsFor(svc, image.json.id, 'linkedin');
    assert.equal(JSON.parse(imageRow.media).length, 1);
    assert.match(JSON.parse(imageRow.record).content.media.id, /^urn:li:image:/);

    const images = await post({ post: fresh('two images'), mediaUrls: [`${svc.url}/sandbox/media/photo.jpg`, `${svc.url}/sandbox/media/photo.png`] });
    assert.equal(images.json.status, 'success', JSON.stringify(images.json));
    const [imagesRow] = await sandboxPostsFor(svc, images.json.id, 'linkedin');
    assert.equal(JSON.parse(imagesRow.record).content.multiImage.images.length, 2);

    const video = await post({ post: fresh('a video'), mediaUrls: [`${svc.url}/sandbox/media/video-10s.mp4`], isVideo: true });
    assert.equal(video.json.status, 'success', JSON.stringify(video.json));
    const [videoRow] = await sandboxPostsFor(svc, video.json.id, 'linkedin');
    const media = JSON.parse(videoRow.media);
    assert.equal(media[0].kind, 'video');
    const original = Buffer.from(await (await fetch(`${svc.url}/sandbox/media/video-10s.mp4`)).arrayBuffer());
    const uploaded = Buffer.from(await (await fetch(`${svc.url}${media[0].url}`)).arrayBuffer());
    assert.ok(uploaded.equals(original));
  });

  it('faults: 119 retryable connection issue, 401 relink; the same commentary twice is 137', async () => {
    const linked = await linkSandboxAccount(svc, 'linkedin');
    const base = `${svc.url}/sandbox/linkedin`;
    for (const [marker, code, retry, relink] of [
      ['119', 119, true, false],
      ['401', 401, false, true],
    ] as const) {
      const ctx = linked.context(base, { text: fresh(`fault [[fault:${marker}]]`) });
      const result = await adapter.commit(ctx, (await adapter.prepare(ctx, null)) as PreparedState);
      assert.deepEqual(result.kind === 'failed' && [result.code, result.retryAvailable, result.relink], [code, retry, relink], marker);
    }
    const ctx = linked.context(base, { text: fresh('said twice') });
    const prepared = (await adapter.prepare(ctx, null)) as PreparedState;
    assert.equal((await adapter.commit(ctx, prepared)).kind, 'done');
    const again = await adapter.commit(ctx, prepared);
    assert.equal(again.kind === 'failed' && again.code, 137);
  });

  it('the sandbox refuses a sunset LinkedIn-Version (426) and a missing protocol header', async () => {
    const linked = await linkSandboxAccount(svc, 'linkedin');
    const token = linked.tokens().accessToken as string;
    const call = (headers: Record<string, string>) =>
      fetch(`${svc.url}/sandbox/linkedin/rest/posts`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', ...headers }, body: '{}' });
    const old = await call({ 'LinkedIn-Version': '202301', 'X-Restli-Protocol-Version': '2.0.0' });
    assert.equal(old.status, 426);
    assert.equal(((await old.json()) as { code: string }).code, 'NONEXISTENT_VERSION');
    assert.equal((await call({ 'LinkedIn-Version': LINKEDIN_VERSION })).status, 400);
  });

  it('reconcile finds the post an interrupted commit made, and nothing when the commit never ran; delete removes it', async () => {
    const linked = await linkSandboxAccount(svc, 'linkedin');
    const base = `${svc.url}/sandbox/linkedin`;
    const ctx = linked.context(base, { text: fresh('made before the crash (really)') });
    const prepared = (await adapter.prepare(ctx, null)) as PreparedState;
    const done = (await adapter.commit(ctx, prepared)) as PublishDone;
    assert.equal(done.kind, 'done', JSON.stringify(done));
    assert.equal(((await adapter.reconcile(ctx, prepared)) as PublishDone).id, done.id);
    const never = linked.context(base, { text: fresh('never sent') });
    assert.equal(await adapter.reconcile(never, (await adapter.prepare(never, null)) as PreparedState), null);
    assert.equal(await adapter.remove!(ctx, done.id), true);
    assert.equal(await adapter.reconcile(ctx, prepared), null);
  });

  it('DELETE /api/post deletes it on linkedin', async () => {
    const created = await post({ post: fresh('to delete') });
    assert.equal(created.json.status, 'success', JSON.stringify(created.json));
    assert.equal((await svc.api('DELETE', '/post', { body: { id: created.json.id } })).status, 200);
    const [row] = await sandboxPostsFor(svc, created.json.id, 'linkedin');
    assert.notEqual(row.deleted_at, null);
  });
});

describe('classifyLinkedInError on recorded LinkedIn error bodies', () => {
  const answer = (status: number, json: Record<string, unknown>): LinkedInAnswer => ({ status, json, headers: new Headers() });
  it('maps each body to its code', () => {
    const cases: [LinkedInAnswer, number, boolean, boolean, ('post' | 'analytics')?][] = [
      [answer(504, { message: 'Request timed out', status: 504 }), 119, true, false],
      [answer(503, { message: 'Service Unavailable', status: 503 }), 119, true, false],
      [{ status: 0, json: {}, headers: new Headers(), transportError: 'socket hang up' }, 119, true, false],
      [answer(401, { serviceErrorCode: 65601, code: 'REVOKED_ACCESS_TOKEN', message: 'The token used in the request has been revoked by the user', status: 401 }), 401, false, true],
      [answer(401, { serviceErrorCode: 65600, code: 'INVALID_ACCESS_TOKEN', message: 'Invalid access token', status: 401 }), 401, false, true],
      [answer(422, { message: 'Content is a duplicate of urn:li:share:7123456789012345678', status: 422 }), 137, false, false],
      [answer(429, { status: 429, serviceErrorCode: 101, code: 'TOO_MANY_REQUESTS', message: 'Resource level throttle APPLICATION DAY limit for calls to this resource is reached.' }), 429, true, false],
      [answer(426, { status: 426, code: 'NONEXISTENT_VERSION', message: 'Requested version 202301 is not active' }), 503, false, false],
      [answer(403, { status: 403, serviceErrorCode: 100, code: 'ACCESS_DENIED', message: 'Not enough permissions to access: memberCreatorPostAnalytics.FINDER-entity.20250101' }), 475, false, true, 'analytics'],
      [answer(400, { errorDetailType: 'com.linkedin.common.error.BadRequest', message: 'Invalid author', status: 400 }), 101, false, false],
    ];
    for (const [input, code, retry, relink, step] of cases) {
      const failure = classifyLinkedInError(input, step);
      assert.deepEqual([failure.code, failure.retryAvailable, failure.relink], [code, retry, relink], JSON.stringify(input.json));
    }
  });

  it('a refused refresh: application configuration → 524 (no retry, no relink); expired refresh token → relink', () => {
    const config = classifyLinkedInRefresh(400, { error: 'unauthorized_client', error_description: 'The client is not authorized to use programmatic refresh tokens' });
    assert.deepEqual([config.code, config.retryAvailable, config.relink], [524, false, false]);
    const expired = classifyLinkedInRefresh(400, { error: 'invalid_request', error_description: 'The provided refresh token is invalid or has expired' });
    assert.deepEqual([expired.code, expired.relink], [401, true]);
  });
});
