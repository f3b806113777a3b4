/**
 * The S3-compatible media store against a real HTTP S3 server on loopback (s3-test-server.ts) that recomputes every
 * SigV4 signature with an independent implementation: writes, reads, presigned expiring addresses for networks
 * that pull media, refusals (bad secret, store down → 452), and the whole service configured with `MEDIA_S3_*`
 * publishing a converted image from the bucket. The signer itself is checked against AWS's published examples.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { isMediaFailure } from '../../src/publishing/media/media-failure.js';
import { stageJpeg } from '../../src/publishing/media/prepare-media.js';
import { createGuardedFetch } from '../../src/core/guarded-fetch.js';
import { openS3MediaStore, readS3MediaStoreSettings, type S3MediaStoreSettings } from '../../src/storage/s3-media-store.js';
import { presignS3Url, signS3Request } from '../../src/storage/s3-signature.js';
import { testClock, type TestService } from '../support/test-service.js';
import { linkSandboxAccounts, sandboxPostsFor, startPublishingService } from '../publishing/publishing-fixtures.js';
import { startS3TestServer, type S3TestServer } from './s3-test-server.js';

const CREDENTIALS = { accessKeyId: 'AKIDTESTMEDIA', secretAccessKey: 'test/secret+key', region: 'eu-central-1' };
const clock = testClock();
let s3: S3TestServer;

before(async () => {
  s3 = await startS3TestServer({ bucket: 'media-bucket', ...CREDENTIALS, now: clock });
});
after(() => s3.close());

function storeWith(overrides: Partial<S3MediaStoreSettings> = {}) {
  const settings: S3MediaStoreSettings = { endpoint: s3.endpoint, bucket: 'media-bucket', prefix: 'copies/', ...CREDENTIALS, ...overrides };
  const fetch = createGuardedFetch({ allowPrivateTargets: false, allowedOrigins: () => [s3.endpoint], timeoutMs: 5_000, maxBytes: 5 * 1024 * 1024, maxRedirects: 0 });
  return openS3MediaStore({ settings, fetch, now: clock });
}

const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4, 5]);

describe('SigV4 signer', () => {
  // The examples of the S3 API reference ("Authenticating requests: AWS Signature Version 4").
  const example = { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', region: 'us-east-1' };
  const at = Date.parse('2013-05-24T00:00:00Z');

  test('a presigned GET matches the published example signature', () => {
    const url = presignS3Url(new URL('https://examplebucket.s3.amazonaws.com/test.txt'), example, at, 86_400);
    assert.equal(new URL(url).searchParams.get('X-Amz-Signature'), 'aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404');
  });

  test('a header-signed GET with a range matches the published example signature', () => {
    const headers = signS3Request(
      { method: 'GET', url: new URL('https://examplebucket.s3.amazonaws.com/test.txt'), headers: { Range: 'bytes=0-9' }, payloadHash: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855' },
      example,
      at,
    );
    assert.match(headers.authorization!, /SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41$/);
  });
});

describe('S3 media store', () => {
  test('put stores the bytes under their hash with the content type; read gives them back', async () => {
    const store = storeWith();
    const stored = await store.put(JPEG, 'image/jpeg');
    assert.match(stored.name, /^[0-9a-f]{64}\.jpg$/);
    const object = s3.objects.get(`copies/${stored.name}`);
    assert.ok(object, [...s3.objects.keys()].join());
    assert.equal(object.contentType, 'image/jpeg');
    assert.deepEqual(new Uint8Array(object.bytes), JPEG);
    const read = await store.read(stored.name);
    assert.deepEqual(new Uint8Array(read!.bytes), JPEG);
    assert.equal(read!.contentType, 'image/jpeg');
    assert.equal(await store.read(`${'0'.repeat(64)}.jpg`), null);
    assert.equal(await store.read('../etc/passwd'), null);
  });

  test('a presigned address works for a puller without credentials until it expires, and only for its object', async () => {
    const store = storeWith();
    const stored = await store.put(JPEG, 'image/jpeg');
    const url = store.signedUrl(stored.name, clock(), 60_000);
    assert.equal(new URL(url).searchParams.get('X-Amz-Expires'), '60');
    const pulled = await fetch(url);
    assert.equal(pulled.status, 200);
    assert.equal(pulled.headers.get('content-type'), 'image/jpeg');
    assert.deepEqual(new Uint8Array(await pulled.arrayBuffer()), JPEG);

    const other = await store.put(new Uint8Array([0xff, 0xd8, 0xff, 9]), 'image/jpeg');
    const pointedElsewhere = await fetch(url.replace(stored.name, other.name));
    assert.equal(pointedElsewhere.status, 403);
    assert.match(await pointedElsewhere.text(), /SignatureDoesNotMatch/);

    clock.advance(61_000);
    const expired = await fetch(url);
    assert.equal(expired.status, 403);
    assert.match(await expired.text(), /Request has expired/);
  });

  test('presigned lifetimes are capped at S3\'s 7 days', () => {
    const url = storeWith().signedUrl(`${'a'.repeat(64)}.jpg`, clock(), 30 * 24 * 3_600_000);
    assert.equal(new URL(url).searchParams.get('X-Amz-Expires'), String(7 * 24 * 3600));
  });

  test('a wrong secret is refused by the server (403) and staging then fails with 452, retryable, no secret shown', async () => {
    const store = storeWith({ secretAccessKey: 'not-the-secret' });
    await assert.rejects(store.put(JPEG, 'image/jpeg'), (error: Error & { code?: string }) => error.code === 'S3_403');
    assert.match(s3.requests.at(-1)!, /^PUT \/media-bucket\/copies\/[0-9a-f]{64}\.jpg 403$/);
    const staged = await stageJpeg(JPEG, { store, now: clock } as never);
    assert.ok(isMediaFailure(staged));
    assert.equal(staged.code, 452);
    assert.equal(staged.retryAvailable, true);
    assert.equal(staged.details?.reason, 'S3_403');
    assert.doesNotMatch(JSON.stringify(staged), /not-the-secret/);
  });

  test('a store that answers 503 fails the write (452 upstream)', async () => {
    s3.failPutsWith = 503;
    try {
      await assert.rejects(storeWith().put(JPEG, 'image/jpeg'), (error: Error & { code?: string }) => error.code === 'S3_503');
    } finally {
      s3.failPutsWith = null;
    }
  });

  test('settings: none without an endpoint, refused when half configured', () => {
    assert.equal(readS3MediaStoreSettings({}), null);
    assert.throws(() => readS3MediaStoreSettings({ MEDIA_S3_ENDPOINT: 'http://127.0.0.1:9000', MEDIA_S3_BUCKET: 'b' }), /MEDIA_S3_ACCESS_KEY_ID, MEDIA_S3_SECRET_ACCESS_KEY are not/);
    assert.throws(() => readS3MediaStoreSettings({ MEDIA_S3_ENDPOINT: 'ftp://x' }), /http/);
    assert.deepEqual(readS3MediaStoreSettings({ MEDIA_S3_ENDPOINT: 'http://h:9000', MEDIA_S3_BUCKET: 'b', MEDIA_S3_ACCESS_KEY_ID: 'k', MEDIA_S3_SECRET_ACCESS_KEY: 's' }), {
      endpoint: 'http://h:9000',
      bucket: 'b',
      region: 'us-east-1',
      accessKeyId: 'k',
      secretAccessKey: 's',
      prefix: '',
    });
  });
});

describe('the service with MEDIA_S3_* configured', () => {
  let svc: TestService;
  let serviceS3: S3TestServer;
  before(async () => {
    // The S3 server judges dates by the service's own (test) clock, as a real store and service share real time.
    serviceS3 = await startS3TestServer({ bucket: 'slk', ...CREDENTIALS, now: () => svc.clock() });
    svc = await startPublishingService({
      env: {
        MEDIA_S3_ENDPOINT: serviceS3.endpoint,
        MEDIA_S3_BUCKET: 'slk',
        MEDIA_S3_REGION: CREDENTIALS.region,
        MEDIA_S3_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
        MEDIA_S3_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
      },
    });
    await linkSandboxAccounts(svc, ['instagram']);
  });
  after(async () => {
    await svc?.close();
    await serviceS3.close();
  });

  test('a WebP for instagram is converted, written to the bucket, and instagram gets a presigned address of it', async () => {
    const created = await svc.api('POST', '/post', { body: { post: 'S3 copy of a WebP 4471', platforms: ['instagram'], mediaUrls: [`${svc.url}/sandbox/media/photo.webp`] } });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    assert.equal(created.json.status, 'success', JSON.stringify(created.json));
    const [instagram] = await sandboxPostsFor(svc, created.json.id, 'instagram');
    const [sent] = JSON.parse(instagram.media) as { url: string }[];
    assert.ok(sent, instagram.media);
    assert.ok(sent.url.startsWith(`${serviceS3.endpoint}/slk/`), sent.url);
    assert.ok(new URL(sent.url).searchParams.has('X-Amz-Signature'));
    const name = new URL(sent.url).pathname.split('/').at(-1)!;
    assert.equal(serviceS3.objects.get(name)?.contentType, 'image/jpeg');
    const pulled = await fetch(sent.url);
    assert.equal(pulled.status, 200);
    assert.deepEqual([...new Uint8Array(await pulled.arrayBuffer()).slice(0, 3)], [0xff, 0xd8, 0xff]);
  });
});
