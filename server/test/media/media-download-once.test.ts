/**
 * An immediate post downloads each media file once: the create-time check and the engine's prepare step share the
 * inspection (recent-inspections.ts). A post sent later fetches its media again at publication (spec 4.9 rule 7).
 * The media host is a counting HTTP server on its own loopback port.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { MediaInspection } from '../../src/publishing/media/inspect-media.js';
import { createRecentInspections } from '../../src/publishing/media/recent-inspections.js';
import { mediaFixture } from '@social-link-kit/sandbox/media/media-fixtures.js';
import type { TestService } from '../support/test-service.js';
import { linkSandboxAccounts, sandboxPostsFor, startPublishingService, waitForPost } from '../publishing/publishing-fixtures.js';

let svc: TestService;
let host: Server;
let origin = '';
const requests: string[] = [];

before(async () => {
  const webp = (await mediaFixture('photo.webp'))!;
  host = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    response.writeHead(200, { 'content-type': webp.contentType, 'content-length': String(webp.bytes.byteLength) });
    response.end(request.method === 'HEAD' ? undefined : webp.bytes);
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
  svc = await startPublishingService({ env: { OUTBOUND_ALLOW_PRIVATE_TARGETS: '1' } });
  await linkSandboxAccounts(svc, ['instagram', 'facebook']);
});
after(async () => {
  await svc.close();
  await new Promise((resolve) => host.close(resolve));
});

const count = (method: string, path: string) => requests.filter((line) => line === `${method} ${path}`).length;

describe('media downloads', () => {
  test('an immediate post to two networks (one converts, one takes the file as is): one HEAD and one GET', async () => {
    const created = await svc.api('POST', '/post', { body: { post: 'download once 31337', platforms: ['instagram', 'facebook'], mediaUrls: [`${origin}/once.webp`] } });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    const post = created.json.status === 'success' ? created.json : await waitForPost(svc, created.json.id, (p) => p.status === 'success');
    assert.equal(post.status, 'success', JSON.stringify(post));
    const [instagram] = await sandboxPostsFor(svc, created.json.id, 'instagram');
    assert.match(instagram.media, /\/media\/[0-9a-f]{64}\.jpg/);
    assert.equal(count('HEAD', '/once.webp'), 1, requests.join('\n'));
    assert.equal(count('GET', '/once.webp'), 1, requests.join('\n'));
  });

  test('a scheduled post fetches its media again at publication', async () => {
    const created = await svc.api('POST', '/post', { body: { post: 'download later 27183', platforms: ['facebook'], mediaUrls: [`${origin}/later.webp`], scheduleDate: '2026-11-22T13:00:00Z' } });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    const atCreate = count('GET', '/later.webp');
    assert.ok(atCreate >= 1);
    svc.clock.advance(2 * 3_600_000);
    await waitForPost(svc, created.json.id, (p) => p.status === 'success');
    assert.equal(count('HEAD', '/later.webp'), 2, requests.join('\n'));
    assert.equal(count('GET', '/later.webp'), atCreate + 1, requests.join('\n'));
  });
});

describe('recent inspections', () => {
  const image = (size: number) => ({ kind: 'image', bytes: new Uint8Array(size) }) as unknown as MediaInspection;

  test('kept for the time limit of the service clock, then fetched again', () => {
    const recent = createRecentInspections({ ttlMs: 60_000, maxBytes: 100 });
    const inspection = image(10);
    recent.set('a', 1_000, inspection);
    assert.equal(recent.get('a', 61_000), inspection);
    assert.equal(recent.get('a', 61_001), undefined);
    assert.equal(recent.get('b', 1_000), undefined);
  });

  test('bounded by bytes, oldest dropped first; a file larger than the bound is not kept', () => {
    const recent = createRecentInspections({ ttlMs: 60_000, maxBytes: 100 });
    recent.set('a', 0, image(40));
    recent.set('b', 1, image(40));
    recent.set('c', 2, image(40));
    assert.equal(recent.get('a', 3), undefined);
    assert.ok(recent.get('b', 3));
    assert.ok(recent.get('c', 3));
    recent.set('huge', 4, image(101));
    assert.equal(recent.get('huge', 5), undefined);
  });
});
