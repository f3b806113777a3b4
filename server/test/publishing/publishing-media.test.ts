/**
 * Media through `POST /api/post` on the real service, against the sandbox media host on the service's own origin
 * (spec 2.1, 4.9 rules 1, 2, 7): checked at create time (HEAD blocked, 404, a redirect to a private address → 164;
 * scheduled = the whole request, immediate = that platform), converted in the engine's prepare step (WebP → JPEG
 * for instagram, served at a signed address), youtube's thumbnail as a 307 warning, first-comment media only where
 * the network takes it, and media protection (`contentIssues`) when the origin fails at publication.
 */
import assert from 'node:assert/strict';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { mediaFixture } from '@social-link-kit/sandbox/media/media-fixtures.js';
import type { TestService } from '../support/test-service.js';
import { linkSandboxAccounts, sandboxPostsFor, startPublishingService, waitForPost } from './publishing-fixtures.js';

/** The test clock starts at 2026-11-22T12:00:00Z. */
const TOMORROW = '2026-11-23T12:00:00Z';
const DAY = 24 * 60 * 60 * 1000;

let svc: TestService;
let n = 0;
const fresh = (label: string) => `${label} media number ${++n} ${n * 7919}`;
const media = (path: string) => `${svc.url}/sandbox/media/${path}`;

before(async () => {
  svc = await startPublishingService();
  await linkSandboxAccounts(svc, ['instagram', 'facebook', 'twitter', 'pinterest', 'youtube']);
});
after(() => svc.close());

describe('at create time', () => {
  test('a WebP image reaches instagram as a JPEG at a signed address; facebook gets the original', async () => {
    const created = await svc.api('POST', '/post', { body: { post: fresh('WebP'), platforms: ['instagram', 'facebook'], mediaUrls: [media('photo.webp')] } });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    assert.equal(created.json.status, 'success', JSON.stringify(created.json));
    const [instagram] = await sandboxPostsFor(svc, created.json.id, 'instagram');
    const [sent] = JSON.parse(instagram.media) as { url: string }[];
    assert.ok(sent, instagram.media);
    assert.match(sent.url, /\/media\/[^/?]+\?expires=\d+&signature=/);
    const converted = await fetch(sent.url);
    assert.equal(converted.status, 200);
    assert.equal(converted.headers.get('content-type'), 'image/jpeg');
    const bytes = new Uint8Array(await converted.arrayBuffer());
    assert.deepEqual([...bytes.slice(0, 3)], [0xff, 0xd8, 0xff]);
    const [facebook] = await sandboxPostsFor(svc, created.json.id, 'facebook');
    assert.equal((JSON.parse(facebook.media) as { url: string }[])[0]?.url, media('photo.webp'));
  });

  for (const [label, path, reason] of [
    ['a host that blocks HEAD', 'mode/head-blocked/photo.jpg', /HEAD/],
    ['a 404', 'mode/status/404/photo.jpg', /404/],
    ['a redirect to a private address', 'mode/redirect-private/photo.jpg', /public address/],
  ] as const) {
    test(`${label}: a scheduled post is refused whole with 164, nothing created`, async () => {
      const before = (await svc.sql('SELECT COUNT(*) AS n FROM posts')).rows[0]!.n;
      const created = await svc.api('POST', '/post', { body: { post: fresh(label), platforms: ['facebook', 'twitter'], mediaUrls: [media(path)], scheduleDate: TOMORROW } });
      assert.equal(created.status, 400, JSON.stringify(created.json));
      assert.equal(created.json.status, 'error');
      assert.equal(created.json.code, 164);
      assert.match(JSON.stringify(created.json), reason);
      assert.equal((await svc.sql('SELECT COUNT(*) AS n FROM posts')).rows[0]!.n, before);
    });
  }

  test('an immediate post fails only the platform whose media fails; the others publish', async () => {
    const created = await svc.api('POST', '/post', {
      body: { post: fresh('Split'), platforms: ['facebook', 'twitter'], mediaUrls: { default: [media('photo.jpg')], twitter: [media('mode/status/404/photo.jpg')] } },
    });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    assert.equal(created.json.status, 'error');
    assert.deepEqual(
      created.json.errors.map((e: any) => [e.platform, e.code]),
      [['twitter', 164]],
    );
    assert.deepEqual(
      created.json.postIds.map((p: any) => [p.platform, p.status]),
      [['facebook', 'success']],
    );
    assert.equal((await sandboxPostsFor(svc, created.json.id, 'twitter')).length, 0);
  });

  test('a video too short for twitter (0.4 s) gives 182', async () => {
    const created = await svc.api('POST', '/post', { body: { post: fresh('Short clip'), platforms: ['twitter'], mediaUrls: [media('video-0.4s.mp4')] } });
    assert.equal(created.status, 400, JSON.stringify(created.json));
    assert.equal(created.json.code, 182);
  });

  test('first-comment media: refused for a network that cannot take it (101), HEAD-checked where it can (164)', async () => {
    const refused = await svc.api('POST', '/post', { body: { post: fresh('Comment'), platforms: ['instagram'], mediaUrls: [media('photo.jpg')], firstComment: { comment: 'hi', mediaUrls: [media('photo.jpg')] } } });
    assert.equal(refused.status, 400, JSON.stringify(refused.json));
    assert.equal(refused.json.code, 101);
    assert.match(refused.json.message, /facebook, linkedin and twitter/);
    const blocked = await svc.api('POST', '/post', { body: { post: fresh('Comment'), platforms: ['facebook'], firstComment: { comment: 'hi', mediaUrls: [media('mode/head-blocked/photo.jpg')] } } });
    assert.equal(blocked.status, 400, JSON.stringify(blocked.json));
    assert.equal(blocked.json.code, 164);
    assert.match(JSON.stringify(blocked.json), /First comment media: The media host refused the HEAD request/);
  });

  test('a youtube thumbnail that is not PNG or JPEG is a 307 warning; the video still publishes', async () => {
    const created = await svc.api('POST', '/post', {
      body: { post: fresh('Video'), platforms: ['youtube'], mediaUrls: [media('video-30s.mp4')], youTubeOptions: { title: 'A video', thumbNail: media('photo.webp') } },
    });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    assert.equal(created.json.status, 'success', JSON.stringify(created.json));
    assert.deepEqual(created.json.postIds[0].warnings, [{ feature: 'thumbnail', code: 307 }]);
  });
});

describe('at publication (media protection)', () => {
  let origin: ServerType;
  let originUrl = '';
  let originUp = true;
  let protectedSvc: TestService;

  before(async () => {
    // An origin the test can take down between scheduling and publication (the sandbox host's modes are fixed).
    const app = new Hono();
    app.on(['GET', 'HEAD'], '/photo.jpg', async (c) => {
      if (!originUp) return c.text('gone', 404);
      const fixture = (await mediaFixture('photo.jpg'))!;
      return new Response(c.req.method === 'HEAD' ? null : fixture.bytes.slice(), { headers: { 'content-type': 'image/jpeg', 'content-length': String(fixture.bytes.length) } });
    });
    origin = await new Promise<ServerType>((resolve) => {
      const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s));
    });
    originUrl = `http://127.0.0.1:${(origin.address() as AddressInfo).port}/photo.jpg`;
    // This origin is on loopback: only this service may reach private addresses.
    protectedSvc = await startPublishingService({ env: { OUTBOUND_ALLOW_PRIVATE_TARGETS: '1' } });
    await linkSandboxAccounts(protectedSvc, ['facebook']);
  });
  after(async () => {
    await protectedSvc.close();
    await new Promise<void>((resolve) => origin.close(() => resolve()));
  });

  test('the origin fails when a scheduled post is due: the stored copy is published and contentIssues says so', async () => {
    const created = await protectedSvc.api('POST', '/post', { body: { post: fresh('Kept'), platforms: ['facebook'], mediaUrls: [originUrl], scheduleDate: TOMORROW } });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    assert.equal(created.json.status, 'scheduled');
    originUp = false;
    protectedSvc.clock.advance(DAY + 1000);
    const done = await waitForPost(protectedSvc, created.json.id, (post) => post.status !== 'scheduled' && post.status !== 'processing');
    assert.equal(done.status, 'success', JSON.stringify(done));
    const entry = done.postIds[0];
    assert.equal(entry.contentIssues.originMediaHostFailed, true);
    assert.match(entry.contentIssues.details[0], /stored copy/);
    const [row] = await sandboxPostsFor(protectedSvc, created.json.id, 'facebook');
    assert.match((JSON.parse(row.media) as { url: string }[])[0]!.url, /\/media\/[^/?]+\?expires=/);
  });

  test('without a stored copy (the origin was never reachable for a copy) an unavailable origin fails the platform with 164', async () => {
    originUp = true;
    const created = await protectedSvc.api('POST', '/post', { body: { post: fresh('Unkept'), platforms: ['facebook'], mediaUrls: [originUrl], scheduleDate: '2026-11-25T12:00:00Z' } });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    await protectedSvc.sql('UPDATE posts SET media_copies = NULL WHERE id = ?', [created.json.id]);
    originUp = false;
    protectedSvc.clock.advance(3 * DAY);
    const done = await waitForPost(protectedSvc, created.json.id, (post) => post.status === 'error' || post.status === 'success');
    assert.equal(done.status, 'error', JSON.stringify(done));
    assert.equal(done.errors[0].code, 164);
  });
});
