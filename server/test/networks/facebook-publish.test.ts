/**
 * The real facebook adapter against the sandbox Pages API (Graph paths and payloads) of a real service on loopback:
 * through `POST /api/post` for text, albums, videos (pending until processed) and faults; directly for reconcile,
 * comments and deletion.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { facebookPublishAdapter as adapter } from '../../src/networks/facebook/publish.js';
import type { PreparedState, PublishDone, PublishFailure } from '../../src/networks/publish-adapter.js';
import type { TestService } from '../support/test-service.js';
import { startPublishingService, waitForPost } from '../publishing/publishing-fixtures.js';
import { linkSandboxAccount } from '../sandbox/sandbox-adapter-context.js';

describe('facebook adapter against the sandbox Graph API', () => {
  let svc: TestService;
  let linked: Awaited<ReturnType<typeof linkSandboxAccount>>;
  let graph: string;
  before(async () => {
    svc = await startPublishingService();
    linked = await linkSandboxAccount(svc, 'facebook');
    graph = `${svc.url}/sandbox/facebook/v21.0`;
  });
  after(() => svc.close());

  const rowsWithText = async (text: string) =>
    (await svc.sql("SELECT * FROM sandbox_posts WHERE platform = 'facebook' AND account_id = ? AND text = ?", [linked.account.accountId, text])).rows;
  const publish = async (body: Record<string, unknown>) => {
    const created = await svc.api('POST', '/post', { body: { platforms: ['facebook'], ...body } });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    return created.json;
  };

  it('publishes text to the page feed once, with a permalink that opens', async () => {
    const created = await publish({ post: 'facebook text post' });
    const post = await waitForPost(svc, created.id, (p) => p.status === 'success' || p.status === 'error');
    assert.equal(post.status, 'success', JSON.stringify(post));
    const entry = post.postIds[0];
    assert.match(entry.id, new RegExp(`^${linked.account.accountId}_\\d+$`));
    assert.equal((await rowsWithText('facebook text post')).length, 1);
    assert.equal((await fetch(entry.postUrl)).status, 200);
  });

  it('an album: photos uploaded unpublished, then one feed post carrying both', async () => {
    const created = await publish({ post: 'facebook album', mediaUrls: [`${svc.url}/sandbox/media/photo.jpg`, `${svc.url}/sandbox/media/photo.png`] });
    await waitForPost(svc, created.id, (p) => p.status === 'success');
    const [row] = await rowsWithText('facebook album');
    assert.deepEqual(JSON.parse(row!.media).map((m: { url: string }) => m.url), [`${svc.url}/sandbox/media/photo.jpg`, `${svc.url}/sandbox/media/photo.png`]);
    const parts = await svc.sql("SELECT COUNT(*) AS n FROM sandbox_posts WHERE platform = 'facebook:part' AND account_id = ?", [linked.account.accountId]);
    assert.equal(Number(parts.rows[0]!.n), 2);
  });

  it('a video is pending until facebook has processed it (service clock), then succeeds', async () => {
    const created = await publish({ post: 'facebook video', mediaUrls: [`${svc.url}/sandbox/media/video-10s.mp4`], isVideo: true });
    await waitForPost(svc, created.id, (p) => p.status === 'pending' || p.status === 'processing');
    const row = await svc.sql("SELECT status FROM post_platforms WHERE post_id = ? AND platform = 'facebook'", [created.id]);
    assert.notEqual(row.rows[0]!.status, 'success');
    svc.clock.advance(10_000);
    const post = await waitForPost(svc, created.id, (p) => p.status === 'success' || p.status === 'error');
    assert.equal(post.status, 'success', JSON.stringify(post));
    assert.equal((await rowsWithText('facebook video')).length, 1);
  });

  it('a reel: start, hosted upload, finish', async () => {
    const ctx = linked.context(graph, { text: 'facebook reel', mediaUrls: ['https://example.com/r.mp4'], isVideo: true, options: { reels: true } });
    const prepared = (await adapter.prepare(ctx, null)) as PreparedState;
    assert.equal(prepared.kind, 'reel', JSON.stringify(prepared));
    const committed = await adapter.commit(ctx, prepared);
    assert.equal(committed.kind, 'pending');
    svc.clock.advance(10_000);
    const confirmed = (await adapter.confirm(ctx, (committed as { state: Record<string, unknown> }).state)) as PublishDone;
    assert.equal(confirmed.kind, 'done', JSON.stringify(confirmed));
    const [row] = await rowsWithText('facebook reel');
    assert.equal(JSON.parse(row!.media)[0].url, 'https://example.com/r.mp4');
  });

  it('faults come back as the spec codes: 249, 476 (never retried), 429 with Retry-After, 401 relink', async () => {
    for (const [marker, code, retry, relink] of [
      ['249', 249, false, false],
      ['476', 476, false, false],
      ['429', 429, true, false],
      ['401', 401, false, true],
    ] as const) {
      const ctx = linked.context(graph, { text: `fault [[fault:${marker}]]` });
      const result = (await adapter.commit(ctx, (await adapter.prepare(ctx, null)) as PreparedState)) as PublishFailure;
      assert.deepEqual([result.code, result.retryAvailable, result.relink], [code, retry, relink], marker);
      if (marker === '429') assert.equal(result.retryAfterMs, 60_000);
    }
    // An immediate post that failed everywhere answers 400 with the platform's error.
    const created = await svc.api('POST', '/post', { body: { platforms: ['facebook'], post: 'through the API [[fault:249]]' } });
    assert.equal(created.status, 400);
    assert.deepEqual([created.json.code, created.json.errors[0].code, created.json.errors[0].retryAvailable], [249, 249, false]);
  });

  it('reconcile finds the post an interrupted commit made, and nothing for a commit that never ran', async () => {
    const ctx = linked.context(graph, { text: 'interrupted facebook commit' });
    const prepared = (await adapter.prepare(ctx, null)) as PreparedState;
    assert.equal(await adapter.reconcile(ctx, prepared), null);
    const committed = (await adapter.commit(ctx, prepared)) as PublishDone;
    const found = (await adapter.reconcile(ctx, prepared)) as PublishDone;
    assert.equal(found.id, committed.id);
    assert.equal((await rowsWithText('interrupted facebook commit')).length, 1);
  });

  it('comments under a post and deletes it', async () => {
    const ctx = linked.context(graph, { text: 'commented then deleted' });
    const done = (await adapter.commit(ctx, (await adapter.prepare(ctx, null)) as PreparedState)) as PublishDone;
    const comment = await adapter.comment!(ctx, done.id, 'first!', ['https://example.com/c.jpg']);
    assert.equal(comment.kind, 'done');
    const comments = await svc.sql('SELECT c.text AS text FROM sandbox_comments c JOIN sandbox_posts p ON p.id = c.post_id WHERE p.network_id = ?', [done.id]);
    assert.equal(comments.rows[0]!.text, 'first!');
    assert.equal(await adapter.remove!(ctx, done.id), true);
    assert.equal((await rowsWithText('commented then deleted'))[0]!.status, 'deleted');
    assert.equal(await adapter.remove!(ctx, done.id), true, 'already gone counts as deleted');
  });

  it('a token of another account is refused with Graph code 190 → relink', async () => {
    const ctx = linked.context(graph, { text: 'x' });
    const other = { ...ctx, account: { ...ctx.account, tokens: async () => ({ accessToken: 'not-a-token' }) } };
    const result = (await adapter.commit(other, { kind: 'feed', preparedAt: 0 })) as PublishFailure;
    assert.deepEqual([result.code, result.relink], [401, true]);
  });
});
