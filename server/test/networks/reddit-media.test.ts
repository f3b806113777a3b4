/**
 * reddit's media lease on a real service on loopback: an image post asks `/api/media/asset.json` for a lease,
 * uploads the image to the lease's bucket as a multipart form and submits `kind=image` with the uploaded address;
 * the sandbox keeps the very bytes. A video stays a link post; a submit naming an image that was never uploaded
 * is refused (BAD_URL).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { REDDIT_USER_AGENT } from '../../src/networks/reddit/reddit-api.js';
import type { TestService } from '../support/test-service.js';
import { startPublishingService, waitForPost } from '../publishing/publishing-fixtures.js';
import { linkSandboxAccount } from '../sandbox/sandbox-adapter-context.js';

describe('reddit media lease', () => {
  let svc: TestService;
  let linked: Awaited<ReturnType<typeof linkSandboxAccount>>;
  before(async () => {
    svc = await startPublishingService();
    linked = await linkSandboxAccount(svc, 'reddit');
  });
  after(() => svc.close());

  const submitted = async (title: string) =>
    JSON.parse((await svc.sql("SELECT record FROM sandbox_posts WHERE platform = 'reddit' AND account_id = ? AND record LIKE ?", [linked.account.accountId, `%${title}%`])).rows[0]!.record);
  const publish = async (title: string, mediaUrl: string) => {
    const created = await svc.api('POST', '/post', { body: { post: `${title} body`, platforms: ['reddit'], mediaUrls: [mediaUrl], redditOptions: { title, subreddit: 'test' } } });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    return created.json.status === 'success' ? created.json : waitForPost(svc, created.json.id, (p) => p.status === 'success' || p.status === 'error');
  };

  it('an image goes up through the lease and becomes an image post with the same bytes', async () => {
    const post = await publish('Lease upload', `${svc.url}/sandbox/media/photo.png`);
    assert.equal(post.status, 'success', JSON.stringify(post));
    const record = await submitted('Lease upload');
    assert.equal(record.kind, 'image');
    assert.match(record.url, /\/sandbox\/reddit\/media-upload\/rte_images\/[\w-]+$/);
    const served = await fetch(record.url);
    assert.equal(served.headers.get('content-type'), 'image/png');
    const original = await fetch(`${svc.url}/sandbox/media/photo.png`);
    assert.deepEqual(Buffer.from(await served.arrayBuffer()), Buffer.from(await original.arrayBuffer()));
  });

  it('a video stays a link post; an image never uploaded is refused with BAD_URL', async () => {
    const post = await publish('Video link', `${svc.url}/sandbox/media/video-3s.mp4`);
    assert.equal(post.status, 'success', JSON.stringify(post));
    assert.equal((await submitted('Video link')).kind, 'link');
    const token = linked.tokens().accessToken as string;
    const answer = await fetch(`${svc.url}/sandbox/reddit/api/submit`, {
      method: 'POST',
      headers: { Authorization: `bearer ${token}`, 'User-Agent': REDDIT_USER_AGENT, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ sr: 'test', title: 'Not uploaded', kind: 'image', url: `${svc.url}/sandbox/reddit/media-upload/rte_images/nothing`, api_type: 'json' }),
    });
    const json = (await answer.json()) as { json: { errors: string[][] } };
    assert.equal(json.json.errors[0]?.[0], 'BAD_URL');
  });
});
