/**
 * The real youtube adapter against the sandbox Data API of a real service on loopback: a resumable upload, resumed
 * after the connection drops mid-upload (308 Resume Incomplete + Range), 453 and 454, reconcile through the upload
 * session, comments and deletion.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { youtubePublishAdapter as adapter } from '../../src/networks/youtube/publish.js';
import type { PlatformPost, PreparedState, PublishContext, PublishDone, PublishFailure } from '../../src/networks/publish-adapter.js';
import type { TestService } from '../support/test-service.js';
import { startPublishingService, waitForPost } from '../publishing/publishing-fixtures.js';
import { linkSandboxAccount } from '../sandbox/sandbox-adapter-context.js';

describe('youtube adapter against the sandbox Data API', () => {
  let svc: TestService;
  let linked: Awaited<ReturnType<typeof linkSandboxAccount>>;
  let base: string;
  let video: string;
  before(async () => {
    svc = await startPublishingService();
    linked = await linkSandboxAccount(svc, 'youtube');
    base = `${svc.url}/sandbox/youtube`;
    video = `${svc.url}/sandbox/media/video-3s.mp4`;
  });
  after(() => svc.close());

  const context = (post: Partial<PlatformPost>): PublishContext => linked.context(base, { mediaUrls: [video], isVideo: true, ...post });
  const videos = async (title: string) =>
    (await svc.sql("SELECT * FROM sandbox_posts WHERE platform = 'youtube' AND account_id = ? AND text LIKE ?", [linked.account.accountId, `${title}\n%`])).rows;

  it('uploads through POST /api/post with youTubeOptions: title, visibility, category, tags', async () => {
    const created = await svc.api('POST', '/post', {
      body: { post: 'the description', platforms: ['youtube'], mediaUrls: [video], isVideo: true, youTubeOptions: { title: 'Sandbox upload', visibility: 'unlisted', categoryId: 22, tags: ['a', 'b'] } },
    });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    const post = created.json.status === 'success' ? created.json : await waitForPost(svc, created.json.id, (p) => p.status === 'success' || p.status === 'error');
    assert.equal(post.status, 'success', JSON.stringify(post));
    const [row] = await videos('Sandbox upload');
    const resource = JSON.parse(row!.record).resource;
    assert.deepEqual([resource.snippet.title, resource.snippet.description, resource.snippet.categoryId, resource.snippet.tags, resource.status.privacyStatus], [
      'Sandbox upload',
      'the description',
      '22',
      ['a', 'b'],
      'unlisted',
    ]);
    const media = await fetch(video);
    assert.equal(JSON.parse(row!.record).bytes, (await media.arrayBuffer()).byteLength);
    assert.equal((await fetch(post.postIds[0].postUrl)).status, 200);
  });

  it('a connection dropped mid-upload: the session says where it stopped (308, Range) and the upload resumes once', async () => {
    const ctx = context({ text: 'resume me', options: { title: 'Dropped [[fault:drop]]' } });
    const prepared = (await adapter.prepare(ctx, null)) as PreparedState;
    assert.equal(typeof prepared.sessionUri, 'string', JSON.stringify(prepared));
    const done = (await adapter.commit(ctx, prepared)) as PublishDone;
    assert.equal(done.kind, 'done', JSON.stringify(done));
    const rows = await videos('Dropped [[fault:drop]]');
    assert.equal(rows.length, 1);
    assert.equal(JSON.parse(rows[0]!.record).bytes, prepared.total);
    const offsets = linked.logs.filter((entry) => entry.event === 'youtube upload').map((entry) => entry.fields?.offset);
    assert.equal(offsets[0], 0);
    assert.ok(Number(offsets.at(-1)) > 0, `resumed from the middle: ${JSON.stringify(offsets)}`);
  });

  it('453 (upload timed out) and 454 (service unavailable) with retry; a bad title is refused before anything', async () => {
    for (const [marker, code] of [['453', 453], ['454', 454]] as const) {
      const ctx = context({ options: { title: `Fault [[fault:${marker}]]` } });
      const result = (await adapter.commit(ctx, (await adapter.prepare(ctx, null)) as PreparedState)) as PublishFailure;
      assert.deepEqual([result.code, result.retryAvailable], [code, true], marker);
    }
    const post = context({}).post;
    assert.equal(adapter.validate({ ...post, options: {} }, linked.account)[0]?.code, 101);
    assert.equal(adapter.validate({ ...post, options: { title: 'x'.repeat(101) } }, linked.account)[0]?.code, 101);
    assert.equal(adapter.validate({ ...post, options: { title: 'ok', visibility: 'friends' } }, linked.account)[0]?.code, 101);
    assert.deepEqual(adapter.validate({ ...post, options: { title: 'ok', visibility: 'public', categoryId: '22' } }, linked.account), []);
  });

  it('reconcile asks the upload session: nothing before the upload, the video after an interrupted commit', async () => {
    const ctx = context({ text: 'reconciled', options: { title: 'Reconcile me' } });
    const prepared = (await adapter.prepare(ctx, null)) as PreparedState;
    assert.equal(await adapter.reconcile(ctx, prepared), null);
    const done = (await adapter.commit(ctx, prepared)) as PublishDone;
    const found = (await adapter.reconcile(ctx, prepared)) as PublishDone;
    assert.deepEqual([found.kind, found.id], ['done', done.id]);
    // Committing again on the finished session finds the same video instead of uploading another.
    const again = (await adapter.commit(ctx, prepared)) as PublishDone;
    assert.equal(again.id, done.id);
    assert.equal((await videos('Reconcile me')).length, 1);
    const comment = await adapter.comment!(ctx, done.id, 'first comment', []);
    assert.equal(comment.kind, 'done');
    assert.equal(await adapter.remove!(ctx, done.id), true);
    assert.equal((await videos('Reconcile me'))[0]!.status, 'deleted');
  });
});
