/**
 * POST /api/media/urlExists and /api/media/verifyUrl on the real service, against its own sandbox media host
 * (the one private origin its guarded fetch allows), and the signed /media/<name> addresses.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openMediaStore } from '../../src/publishing/media/media-store.js';
import { startTestService, type TestService } from '../support/test-service.js';

let service: TestService;
const media = (path: string) => `${service.url}/sandbox/media/${path}`;

before(async () => {
  service = await startTestService();
});
after(() => service.close());

function assertEnvelope(json: Record<string, any>, code: number) {
  assert.equal(json.status, 'error');
  assert.equal(json.action, 'media');
  assert.equal(json.code, code, json.message);
  assert.equal(typeof json.message, 'string');
}

describe('POST /api/media/urlExists', () => {
  it('answers with the HEAD facts of a reachable file', async () => {
    const { status, json } = await service.api('POST', '/media/urlExists', { body: { mediaUrl: media('photo.jpg') } });
    assert.equal(status, 200);
    assert.equal(json.status, 'success');
    assert.equal(json.exists, true);
    assert.equal(json.contentType, 'image/jpeg');
    assert.ok(json.contentLength > 0);
  });

  it('a host blocking HEAD gives the 164 envelope with the reason in details', async () => {
    const { status, json } = await service.api('POST', '/media/urlExists', { body: { mediaUrl: media('mode/head-blocked/photo.jpg') } });
    assert.equal(status, 400);
    assertEnvelope(json, 164);
    assert.match(json.details.reason, /HEAD blocked: HTTP 403/);
  });

  it('404, redirects to private addresses and encoded spaces give 164', async () => {
    for (const mediaUrl of [media('mode/status/404/photo.jpg'), media('mode/redirect-private/photo.jpg'), media('photo%20copy.jpg'), 'http://10.0.0.8/a.jpg']) {
      const { status, json } = await service.api('POST', '/media/urlExists', { body: { mediaUrl } });
      assert.equal(status, 400, mediaUrl);
      assertEnvelope(json, 164);
    }
  });

  it('bad bodies get 101, and the route needs the API key', async () => {
    assert.equal((await service.api('POST', '/media/urlExists', { body: {} })).json.code, 101);
    assert.equal((await service.api('POST', '/media/urlExists', { rawBody: '{oops' })).json.code, 101);
    const anonymous = await fetch(`${service.url}/api/media/urlExists`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    assert.equal(anonymous.status, 401);
  });
});

describe('POST /api/media/verifyUrl', () => {
  it('tells what each network would do with a WebP', async () => {
    const { status, json } = await service.api('POST', '/media/verifyUrl', { body: { mediaUrl: media('mode/wrong-type/photo.webp') } });
    assert.equal(status, 200);
    assert.equal(json.kind, 'image');
    assert.equal(json.contentType, 'image/webp');
    assert.equal(json.declaredContentType, 'text/html');
    assert.equal(json.width, 800);
    assert.equal(json.platforms.instagram.action, 'convert-to-jpeg');
    assert.equal(json.platforms.bluesky.action, 'as-is');
    assert.equal(json.platforms.youtube.action, 'refused');
  });

  it('judges a header-only video by its duration (182, longVideo)', async () => {
    const plain = await service.api('POST', '/media/verifyUrl', { body: { mediaUrl: media('video-141s.mp4'), platforms: ['twitter', 'facebook'] } });
    assert.equal(plain.json.seconds, 141);
    assert.deepEqual(plain.json.platforms.twitter, { action: 'refused', code: 182, message: plain.json.platforms.twitter.message });
    assert.equal(plain.json.platforms.facebook.action, 'as-is');
    const long = await service.api('POST', '/media/verifyUrl', { body: { mediaUrl: media('video-141s.mp4'), platforms: ['twitter'], longVideo: true } });
    assert.equal(long.json.platforms.twitter.action, 'as-is');
  });

  it('an undecodable HEIC gives the 450 envelope; bad platforms give 163', async () => {
    const broken = await service.api('POST', '/media/verifyUrl', { body: { mediaUrl: media('broken.heic') } });
    assert.equal(broken.status, 400);
    assertEnvelope(broken.json, 450);
    const platforms = await service.api('POST', '/media/verifyUrl', { body: { mediaUrl: media('photo.jpg'), platforms: ['myspace'] } });
    assertEnvelope(platforms.json, 163);
  });
});

describe('GET /media/<name>', () => {
  it('serves a stored file at its signed address only', async () => {
    const store = await openMediaStore({ directory: join(service.config.dataDir, 'media'), publicUrl: () => service.config.publicUrl });
    const stored = await store.put(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2]), 'image/jpeg');
    const signed = store.signedUrl(stored.name, service.clock());
    const ok = await fetch(signed);
    assert.equal(ok.status, 200);
    assert.equal(ok.headers.get('content-type'), 'image/jpeg');
    assert.equal((await ok.arrayBuffer()).byteLength, 6);
    assert.equal((await fetch(`${signed}x`)).status, 404);
    assert.equal((await fetch(`${service.url}/media/${stored.name}`)).status, 404);
    service.clock.advance(49 * 3_600_000);
    assert.equal((await fetch(signed)).status, 404, 'expired by the service clock');
  });
});
