/**
 * The real threads adapter against the sandbox threads API of a real service on loopback: containers, the 30 s
 * wait on the service clock, long texts as reply chains, 379, 522 (also in the last entry of `posts`), country
 * allow-lists, reconcile after an interrupted publish.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { THREADS_WAIT_MAX_MS, createThreadsPublishAdapter } from '../../src/networks/threads/publish.js';
import type { PlatformPost, PreparedState, PrepareWaiting, PublishContext, PublishDone, PublishFailure } from '../../src/networks/publish-adapter.js';
import type { TestService } from '../support/test-service.js';
import { startPublishingService } from '../publishing/publishing-fixtures.js';
import { linkSandboxAccount } from '../sandbox/sandbox-adapter-context.js';

describe('threads adapter against the sandbox threads API', () => {
  let svc: TestService;
  let linked: Awaited<ReturnType<typeof linkSandboxAccount>>;
  let base: string;
  // Waiting inside commit moves the service clock, as the sandbox finishes containers on that clock.
  const adapter = createThreadsPublishAdapter({ wait: async (ms) => svc.clock.advance(ms) });
  before(async () => {
    svc = await startPublishingService();
    linked = await linkSandboxAccount(svc, 'threads');
    base = `${svc.url}/sandbox/threads/v1.0`;
  });
  after(() => svc.close());

  const context = (post: Partial<PlatformPost>): PublishContext => linked.context(base, post);
  const posts = async () => (await svc.sql("SELECT * FROM sandbox_posts WHERE platform = 'threads' AND account_id = ? ORDER BY created_at, id", [linked.account.accountId])).rows;
  const prepareUntilDone = async (ctx: PublishContext) => {
    let state: PreparedState | null = null;
    for (let runs = 0; runs < 100; runs++) {
      const result = await adapter.prepare(ctx, state);
      if ((result as PrepareWaiting).kind !== 'waiting') return result;
      state = (result as PrepareWaiting).state;
      svc.clock.advance((result as PrepareWaiting).checkAfterMs);
    }
    throw new Error('prepare never finished');
  };
  const publish = async (post: Partial<PlatformPost>) => {
    const ctx = context(post);
    const prepared = await prepareUntilDone(ctx);
    if ((prepared as PublishFailure).kind === 'failed') return { ctx, prepared, result: prepared as PublishFailure };
    return { ctx, prepared: prepared as PreparedState, result: await adapter.commit(ctx, prepared as PreparedState) };
  };

  it('publishes text through POST /api/post once', async () => {
    const created = await svc.api('POST', '/post', { body: { post: 'threads hello', platforms: ['threads'] } });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    assert.equal(created.json.status, 'success', JSON.stringify(created.json));
    const rows = (await posts()).filter((row) => row.text === 'threads hello');
    assert.equal(rows.length, 1);
    assert.equal((await fetch(created.json.postIds[0].postUrl)).status, 200);
  });

  it('a video waits for its container on the service clock; a carousel; allowCountries becomes allowlisted_country_codes', async () => {
    const video = await publish({ text: 'threads video', mediaUrls: ['https://example.com/v.mp4'], isVideo: true, options: { allowCountries: ['us', 'CA'] } });
    assert.equal(video.result.kind, 'done', JSON.stringify(video.result));
    const row = (await posts()).find((r) => r.text === 'threads video')!;
    assert.deepEqual(JSON.parse(row.record).allowlisted_country_codes, ['US', 'CA']);
    const carousel = await publish({ text: 'threads carousel', mediaUrls: ['https://example.com/1.jpg', 'https://example.com/2.mp4'] });
    assert.equal(carousel.result.kind, 'done', JSON.stringify(carousel.result));
    assert.equal(JSON.parse((await posts()).find((r) => r.text === 'threads carousel')!.media).length, 2);
  });

  it('a long text becomes a reply chain', async () => {
    const text = Array.from({ length: 3 }, (_, i) => `Part ${i + 1} ${'word '.repeat(90)}`).join('\n\n');
    const { result } = await publish({ text });
    const done = result as PublishDone;
    assert.equal(done.kind, 'done', JSON.stringify(result));
    const chain = (await posts()).filter((row) => row.text.startsWith('Part '));
    assert.equal(chain.length, 3);
    const part = (n: number) => chain.find((row) => row.text.startsWith(`Part ${n} `))!;
    assert.equal(part(1).network_id, done.id);
    assert.equal(JSON.parse(part(2).record).reply_to_id, done.id);
    assert.equal(JSON.parse(part(3).record).reply_to_id, part(2).network_id);
  });

  it('522 after 30 s of waiting for the first container; in a chain, the last entry of posts and the published parts remain', async () => {
    const started = svc.clock();
    const first = (await publish({ text: 'never ready [[fault:522]]' })).result as PublishFailure;
    assert.deepEqual([first.code, first.retryAvailable], [522, true]);
    assert.ok(svc.clock() - started >= THREADS_WAIT_MAX_MS);
    const text = `Chain one ${'a '.repeat(240)}\n\nChain two ${'b '.repeat(200)} [[fault:522]]`;
    const chain = (await publish({ text })).result as PublishFailure;
    assert.equal(chain.code, 522, JSON.stringify(chain));
    const entries = chain.details!.posts as { status: string; code?: number }[];
    assert.deepEqual(entries.map((entry) => entry.status), ['success', 'error']);
    assert.equal(entries.at(-1)!.code, 522);
    assert.equal((await posts()).filter((row) => row.text.startsWith('Chain one')).length, 1);
  });

  it('379 for other threads errors; through the API too', async () => {
    const refused = (await publish({ text: 'refused [[fault:379]]' })).result as PublishFailure;
    assert.deepEqual([refused.code, refused.retryAvailable], [379, false]);
    const created = await svc.api('POST', '/post', { body: { post: 'refused via API [[fault:379]]', platforms: ['threads'] } });
    assert.equal(created.json.errors[0].code, 379, JSON.stringify(created.json));
  });

  it('reconcile: nothing before the publish, the post after an interrupted one; replies as comments', async () => {
    const ctx = context({ text: 'interrupted threads publish' });
    const prepared = (await prepareUntilDone(ctx)) as PreparedState;
    assert.equal(await adapter.reconcile(ctx, prepared), null);
    const done = (await adapter.commit(ctx, prepared)) as PublishDone;
    const found = (await adapter.reconcile(ctx, prepared)) as PublishDone;
    assert.deepEqual([found.kind, found.id], ['done', done.id]);
    const reply = await adapter.comment!(ctx, done.id, 'a reply', []);
    assert.equal(reply.kind, 'done');
    assert.equal((await posts()).filter((row) => row.text === 'interrupted threads publish').length, 1);
  });
});
