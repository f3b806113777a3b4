/**
 * End to end on a real service: `POST /api/post` to bluesky, telegram and twitter sandbox accounts linked with
 * `POST /api/sandbox/accounts`, through the engine and the registered adapters (bluesky's XRPC, telegram's Bot API,
 * the generic sandbox adapter), then the feed shows each post once.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TestService } from '../support/test-service.js';
import { linkSandboxAccounts, startPublishingService, waitForPost } from '../publishing/publishing-fixtures.js';

describe('publishing to the sandbox networks end to end', () => {
  let svc: TestService;
  before(async () => {
    svc = await startPublishingService();
    await linkSandboxAccounts(svc, ['bluesky', 'telegram', 'twitter']);
  });
  after(() => svc.close());

  it('publishes once on each network and the feed shows it', async () => {
    const created = await svc.api('POST', '/post', { body: { post: 'Hello from the end-to-end test https://example.com', platforms: ['bluesky', 'telegram', 'twitter'] } });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    const post = await waitForPost(svc, created.json.id, (p) => p.status === 'success' || p.status === 'error');
    assert.equal(post.status, 'success', JSON.stringify(post));
    const ids = Object.fromEntries((post.postIds as { platform: string; id: string; postUrl: string }[]).map((entry) => [entry.platform, entry]));
    assert.match(ids.bluesky!.id, /^at:\/\/did:plc:[0-9a-f]{24}\/app\.bsky\.feed\.post\/[a-z2-7]{13}$/);
    assert.match(ids.telegram!.id, /^\d+$/);
    for (const platform of ['bluesky', 'telegram', 'twitter']) {
      const rows = await svc.sql("SELECT COUNT(*) AS n FROM sandbox_posts WHERE platform = ? AND text LIKE 'Hello from the end-to-end test%'", [platform]);
      assert.equal(Number(rows.rows[0]!.n), 1, platform);
      assert.equal((await fetch(ids[platform]!.postUrl)).status, 200, `${platform} postUrl`);
    }
    const feed = await (await fetch((await svc.api('GET', '/sandbox/feed-url')).json.url)).text();
    assert.equal((feed.match(/Hello from the end-to-end test/g) ?? []).length, 3);
  });
});
