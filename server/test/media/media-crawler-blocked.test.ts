/**
 * Code 479 (spec 7: network crawler blocked even after re-hosting) on the real service, through the sandbox
 * instagram's fault markers: `[[fault:crawler-blocked]]` makes its crawler refuse media from anywhere but the
 * service's own signed `/media/` addresses (an origin that blocks Meta's crawler), `[[fault:479]]` makes it refuse
 * every URL. The engine re-hosts the images once when the network says it could not fetch them.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { PublishFailure } from '../../src/networks/publish-adapter.js';
import { crawlerBlockedAfterRehost, shouldRehost } from '../../src/publishing/media/crawler-blocked.js';
import type { TestService } from '../support/test-service.js';
import { linkSandboxAccounts, sandboxPostsFor, startPublishingService, waitForPost } from '../publishing/publishing-fixtures.js';

let svc: TestService;
let n = 0;
const fresh = (label: string) => `${label} crawler number ${++n} ${n * 104_729}`;

before(async () => {
  svc = await startPublishingService();
  await linkSandboxAccounts(svc, ['instagram']);
});
after(() => svc.close());

async function publish(body: Record<string, unknown>) {
  const created = await svc.api('POST', '/post', { body: { platforms: ['instagram'], ...body } });
  assert.equal(created.status === 200 || created.status === 400, true, JSON.stringify(created.json));
  const id = created.json.id as string;
  return created.json.status === 'success' || created.json.status === 'error' ? created.json : waitForPost(svc, id, (post) => post.status === 'success' || post.status === 'error');
}

describe('479: crawler blocked after re-hosting', () => {
  test('an origin the crawler cannot reach: the image is re-hosted and published from the service\'s signed copy', async () => {
    const origin = `${svc.url}/sandbox/media/photo.jpg`;
    const post = await publish({ post: fresh('[[fault:crawler-blocked]]'), mediaUrls: [origin] });
    assert.equal(post.status, 'success', JSON.stringify(post));
    const [instagram] = await sandboxPostsFor(svc, post.id, 'instagram');
    const [sent] = JSON.parse(instagram.media) as { url: string }[];
    assert.ok(sent, instagram.media);
    assert.match(sent.url, new RegExp(`^${svc.url}/media/[0-9a-f]{64}\\.jpg\\?expires=\\d+&signature=`));
    const copy = await fetch(sent.url);
    const original = await fetch(origin);
    assert.deepEqual(new Uint8Array(await copy.arrayBuffer()), new Uint8Array(await original.arrayBuffer()));
  });

  test('a crawler that cannot fetch the re-hosted copy either: 479, not retryable, with the network\'s answer in details', async () => {
    const post = await publish({ post: fresh('[[fault:479]]'), mediaUrls: [`${svc.url}/sandbox/media/photo.jpg`] });
    assert.equal(post.status, 'error', JSON.stringify(post));
    const error = post.errors[0];
    assert.equal(error.code, 479, JSON.stringify(post));
    assert.equal(error.retryAvailable, false);
    assert.equal(error.details?.graphSubcode, 2207052);
    assert.equal(error.details?.networkCode, 138);
  });

  test('without media to re-host, or for other failures, the network\'s own code stays', () => {
    const blocked: PublishFailure = { kind: 'failed', code: 138, message: 'blocked', retryAvailable: false, relink: false, mediaFetchBlocked: true };
    const other: PublishFailure = { kind: 'failed', code: 138, message: 'ratio', retryAvailable: false, relink: false };
    // A video is never re-hosted: its URLs stay the origin's, so a blocked video is not 479.
    assert.equal(shouldRehost(blocked, { urls: ['https://origin.example/v.mp4'] }), true);
    assert.equal(crawlerBlockedAfterRehost(blocked, { urls: ['https://origin.example/v.mp4'] }).code, 138);
    assert.equal(shouldRehost(blocked, { urls: ['https://svc.example/media/a.jpg'], rehosted: true }), false);
    assert.equal(crawlerBlockedAfterRehost(blocked, { urls: ['https://svc.example/media/a.jpg'], rehosted: true }).code, 479);
    assert.equal(shouldRehost(other, { urls: ['https://origin.example/a.jpg'] }), false);
    assert.equal(crawlerBlockedAfterRehost(other, { urls: ['https://svc.example/media/a.jpg'], rehosted: true }).code, 138);
    assert.equal(shouldRehost(blocked, null), false);
  });
});
