/**
 * bluesky video through the real adapter and the sandbox video service on loopback: service auth from the PDS,
 * uploadVideo, getJobStatus while the job transcodes (the service clock moves it), the post's
 * `app.bsky.embed.video`; a video over the duration limit fails its job (182); the limits are the capability
 * table's.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { PUBLISHING_CAPABILITIES } from '@social-link-kit/protocol/publishing/capabilities.js';
import { blueskyPublishAdapter as adapter, BLUESKY_MAX_IMAGE_BYTES, BLUESKY_MAX_IMAGES } from '../../src/networks/bluesky/publish.js';
import type { PrepareWaiting, PreparedState, PublishDone, PublishFailure } from '../../src/networks/publish-adapter.js';
import { BLUESKY_LIMITS } from '../../src/networks/bluesky/limits.js';
import { headerOnlyMp4 } from '@social-link-kit/sandbox/media/header-only-mp4.js';
import { BLUESKY_BLOB_MAX_BYTES } from '@social-link-kit/sandbox/networks/bluesky-pds.js';
import { SANDBOX_VIDEO_PROCESSING_MS } from '@social-link-kit/sandbox/networks/bluesky-video-api.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { linkSandboxAccount } from '../sandbox/sandbox-adapter-context.js';
import { linkSandboxAccounts, startPublishingService, waitForPost } from '../publishing/publishing-fixtures.js';

async function startVideoHost(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    const seconds = /^\/clip-(\d+)\.mp4$/.exec(request.url ?? '')?.[1];
    if (!seconds) return void response.writeHead(404).end();
    const bytes = headerOnlyMp4(Number(seconds));
    response.writeHead(200, { 'Content-Type': 'video/mp4', 'Content-Length': bytes.byteLength }).end(bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('bluesky video against the sandbox video service', () => {
  let svc: TestService;
  let host: Awaited<ReturnType<typeof startVideoHost>>;
  let linked: Awaited<ReturnType<typeof linkSandboxAccount>>;
  let pds: string;
  before(async () => {
    svc = await startTestService();
    host = await startVideoHost();
    linked = await linkSandboxAccount(svc, 'bluesky');
    pds = `${svc.url}/sandbox`;
  });
  after(async () => {
    await host.close();
    await svc.close();
  });

  it('uploads the video, waits for the job, and posts it as an app.bsky.embed.video', async () => {
    const ctx = linked.context(pds, { text: 'a short clip', mediaUrls: [`${host.url}/clip-30.mp4`], isVideo: true, attemptKey: 'post_v:bluesky:1' });
    const first = (await adapter.prepare(ctx, null)) as PrepareWaiting;
    assert.equal(first.kind, 'waiting', JSON.stringify(first));
    assert.equal(typeof (first.state.video as { jobId: string }).jobId, 'string');
    // Still transcoding: another look waits again and keeps the record key.
    const second = (await adapter.prepare(ctx, first.state)) as PrepareWaiting;
    assert.equal(second.kind, 'waiting');
    assert.equal(second.state.rkey, first.state.rkey);
    svc.clock.advance(SANDBOX_VIDEO_PROCESSING_MS);
    const ready = (await adapter.prepare(ctx, second.state)) as PreparedState;
    assert.equal((ready as { kind?: string }).kind, undefined, JSON.stringify(ready));
    const result = await adapter.commit(ctx, ready);
    assert.equal(result.kind, 'done', JSON.stringify(result));
    const rkey = (result as PublishDone).id.split('/').pop();
    const record = await fetch(`${pds}/xrpc/com.atproto.repo.getRecord?repo=${linked.account.accountId}&collection=app.bsky.feed.post&rkey=${rkey}`);
    const value = ((await record.json()) as { value: Record<string, any> }).value;
    assert.equal(value.embed.$type, 'app.bsky.embed.video');
    assert.equal(value.embed.video.mimeType, 'video/mp4');
    const blob = await fetch(`${pds}/xrpc/com.atproto.sync.getBlob?did=${linked.account.accountId}&cid=${value.embed.video.ref.$link}`);
    assert.equal(blob.status, 200);
    assert.deepEqual(new Uint8Array(await blob.arrayBuffer()), headerOnlyMp4(30));
    const rows = await svc.sql("SELECT media FROM sandbox_posts WHERE platform = 'bluesky' AND text = 'a short clip'");
    assert.equal(JSON.parse(rows.rows[0]!.media)[0].kind, 'video');
  });

  it('a video over 3 minutes fails its job: 182, and nothing is posted', async () => {
    const ctx = linked.context(pds, { text: 'too long', mediaUrls: [`${host.url}/clip-181.mp4`], isVideo: true, attemptKey: 'post_w:bluesky:1' });
    const waiting = (await adapter.prepare(ctx, null)) as PrepareWaiting;
    assert.equal(waiting.kind, 'waiting', JSON.stringify(waiting));
    svc.clock.advance(SANDBOX_VIDEO_PROCESSING_MS);
    const failed = (await adapter.prepare(ctx, waiting.state)) as PublishFailure;
    assert.deepEqual([failed.kind, failed.code, failed.retryAvailable], ['failed', 182, false]);
    assert.match(failed.message, /too long/);
  });

  it('the video service takes only a service token for uploadBlob on this PDS', async () => {
    const body = headerOnlyMp4(10);
    const direct = await fetch(`${pds}/xrpc/app.bsky.video.uploadVideo?did=${linked.account.accountId}&name=a.mp4`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${linked.tokens().accessJwt}`, 'Content-Type': 'video/mp4' },
      body,
    });
    assert.equal(direct.status, 401);
    const grant = await fetch(`${pds}/xrpc/com.atproto.server.getServiceAuth?aud=did:web:elsewhere.example&lxm=com.atproto.repo.uploadBlob`, {
      headers: { Authorization: `Bearer ${linked.tokens().accessJwt}` },
    });
    const { token } = (await grant.json()) as { token: string };
    const wrongAudience = await fetch(`${pds}/xrpc/app.bsky.video.uploadVideo?did=${linked.account.accountId}&name=a.mp4`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'video/mp4' },
      body,
    });
    assert.equal(wrongAudience.status, 401);
    const unknownJob = await fetch(`${pds}/xrpc/app.bsky.video.getJobStatus?jobId=nope`);
    assert.equal(unknownJob.status, 400);
  });

  it('validate takes one video alone and refuses a video with other media', () => {
    const post = linked.context(pds).post;
    assert.deepEqual(adapter.validate({ ...post, isVideo: true, mediaUrls: [`${host.url}/clip-30.mp4`] }, linked.account), []);
    assert.deepEqual(adapter.validate({ ...post, mediaUrls: ['https://media.example/clip.mp4'] }, linked.account), []);
    const mixed = adapter.validate({ ...post, mediaUrls: ['https://media.example/clip.mp4', 'https://media.example/a.png'] }, linked.account);
    assert.equal(mixed[0]?.code, 164);
  });

  it('the limits are stated once, in the capability table, and the adapter, the sandbox and the media check read them', () => {
    const media = PUBLISHING_CAPABILITIES.bluesky.media;
    assert.equal(media.videos, true);
    assert.equal(media.videoMaxBytes, 100 * 1024 * 1024);
    assert.equal(media.videoSeconds.max, 180);
    assert.equal(BLUESKY_LIMITS.videoMaxBytes, media.videoMaxBytes);
    assert.equal(BLUESKY_MAX_IMAGES, media.maxItems);
    assert.equal(BLUESKY_MAX_IMAGE_BYTES, media.imageMaxBytes);
    assert.equal(BLUESKY_BLOB_MAX_BYTES, media.imageMaxBytes);
  });
});

describe('bluesky video through the posts API', () => {
  let svc: TestService;
  before(async () => {
    svc = await startPublishingService();
    await linkSandboxAccounts(svc, ['bluesky']);
  });
  after(() => svc.close());

  it('POST /api/post with a video publishes it to bluesky once the job is done', async () => {
    const created = await svc.api('POST', '/post', { body: { post: 'A clip for bluesky', platforms: ['bluesky'], mediaUrls: [`${svc.url}/sandbox/media/video-10s.mp4`], isVideo: true } });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    assert.notEqual(created.json.status, 'error', JSON.stringify(created.json));
    svc.clock.advance(SANDBOX_VIDEO_PROCESSING_MS);
    const post = await waitForPost(svc, created.json.id, (got) => got.status === 'success');
    const entry = post.postIds.find((p: { platform: string }) => p.platform === 'bluesky');
    assert.match(entry.postUrl, /\/sandbox\/profile\/.+\/post\//);
    const rows = await svc.sql("SELECT media FROM sandbox_posts WHERE platform = 'bluesky' AND text = 'A clip for bluesky'");
    assert.equal(rows.rows.length, 1);
    assert.equal(JSON.parse(rows.rows[0]!.media)[0].kind, 'video');
  });
});
