/**
 * The networks' own limits, counted in the database before the irreversible call (network-rate-budgets.ts): on a
 * real service on loopback, the 7th tiktok publish within a minute waits (no init reaches TikTok) and goes out by
 * itself once the minute has passed; each catalogue budget refuses the unit after its limit with 429, Retry-After
 * and `noAutoRetry` for day budgets; app budgets count only real-network accounts; released units free up.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { NETWORKS as NETWORK_MODULES } from '../../src/networks/index.js';
import { budgetsFor, releaseNetworkBudgets, takeNetworkBudgets } from '../../src/networks/network-rate-budgets.js';
import { databaseRateBudget } from '../../src/core/rate-budget.js';
import type { TestService } from '../support/test-service.js';
import { startPublishingService, waitForPost } from './publishing-fixtures.js';
import { linkSandboxAccount } from '../sandbox/sandbox-adapter-context.js';

describe('network rate budgets', () => {
  let svc: TestService;
  before(async () => {
    svc = await startPublishingService();
  });
  after(() => svc.close());

  it('tiktok: six publish requests a minute per creator; the seventh waits, then goes out by itself', async () => {
    const linked = await linkSandboxAccount(svc, 'tiktok');
    const inits = async () => Number((await svc.sql("SELECT COUNT(*) AS n FROM sandbox_posts WHERE platform = 'tiktok:publish' AND account_id = ?", [linked.account.accountId])).rows[0]!.n);
    const create = (n: number) =>
      svc.api('POST', '/post', { body: { post: `clip number ${n} ${'x'.repeat(n)}`, platforms: ['tiktok'], mediaUrls: [`${svc.url}/sandbox/media/video-10s.mp4`], isVideo: true } });
    for (let n = 1; n <= 6; n++) assert.equal((await create(n)).json.status, 'pending');
    const seventh = await create(7);
    assert.notEqual(seventh.json.status, 'pending', JSON.stringify(seventh.json));
    assert.equal(await inits(), 6, 'the seventh never reached TikTok');
    const job = (await svc.sql("SELECT last_error FROM jobs WHERE subject = ? AND kind = 'publish'", [seventh.json.id])).rows[0];
    assert.match(String(job?.last_error), /^429 tiktok allows 6 tiktok publish requests per minute per creator/);
    svc.clock.advance(61_000);
    const sent = await waitForPost(svc, seventh.json.id, (post) => post.status !== 'processing');
    assert.ok(['pending', 'success'].includes(sent.status), JSON.stringify(sent));
    assert.equal(await inits(), 7);
  });

  it('each budget: its limit, then 429 with Retry-After; day budgets are not retried automatically; a released unit frees up', async () => {
    const budget = databaseRateBudget(svc.storage.driver, svc.clock);
    const real = { accountId: 'acct-real', sandbox: false };
    for (const platform of ['youtube', 'reddit', 'telegram'] as const) {
      const [only] = budgetsFor(platform, real);
      const taken: string[] = [];
      for (let n = 0; n < only!.limit; n++) {
        const take = await takeNetworkBudgets(budget, platform, real);
        assert.equal(take.ok, true, `${platform} unit ${n + 1}`);
        if (take.ok) taken.push(...take.useIds);
      }
      const refused = await takeNetworkBudgets(budget, platform, real);
      assert.equal(refused.ok, false, platform);
      if (refused.ok) continue;
      assert.deepEqual([refused.failure.code, refused.failure.retryAvailable, refused.failure.relink, refused.failure.noAutoRetry === true], [429, true, false, !only!.autoRetry], platform);
      assert.ok(refused.failure.retryAfterMs! > 0 && refused.failure.retryAfterMs! <= only!.windowMs, platform);
      assert.equal(refused.failure.details?.limit, only!.limit);
      await releaseNetworkBudgets(budget, taken.slice(0, 1));
      assert.equal((await takeNetworkBudgets(budget, platform, real)).ok, true, `${platform}: a released unit is free again`);
    }
  });

  it('app budgets count only for the real network; account budgets are per account', async () => {
    assert.deepEqual(budgetsFor('youtube', { sandbox: true }), []);
    assert.deepEqual(budgetsFor('reddit', { sandbox: true }), []);
    assert.deepEqual(budgetsFor('tiktok', { sandbox: true }), NETWORK_MODULES.tiktok.limits.rateBudgets);
    const budget = databaseRateBudget(svc.storage.driver, svc.clock);
    for (let n = 0; n < 20; n++) assert.equal((await takeNetworkBudgets(budget, 'telegram', { accountId: 'chat-a', sandbox: true })).ok, n < 20);
    assert.equal((await takeNetworkBudgets(budget, 'telegram', { accountId: 'chat-a', sandbox: true })).ok, false);
    assert.equal((await takeNetworkBudgets(budget, 'telegram', { accountId: 'chat-b', sandbox: true })).ok, true, 'another chat has its own budget');
    svc.clock.advance(60_001);
    assert.equal((await takeNetworkBudgets(budget, 'telegram', { accountId: 'chat-a', sandbox: true })).ok, true, 'the window rolled');
  });
});
