/**
 * Network status (SQLite, or PostgreSQL with TEST_DATABASE_URL): connect attempts that the network fails (the sandbox
 * consent's "network error", 513) make it `down` on `GET /api/networks/status` and on the hosted page's view; an
 * operator's override from the admin CLI wins until cleared; bad input gets the envelope.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { NetworkStatusResponse } from '@social-link-kit/protocol';
import { runAdminCli } from '../../src/accounts/admin/cli.js';
import { callback, runUntilCallback } from '../support/oauth-driver.js';
import { startTestService, type TestService } from '../support/test-service.js';

describe('network status', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc?.close());

  const statusOf = async (platform: string) => {
    const got = await svc.api('GET', '/networks/status');
    assert.equal(got.status, 200, JSON.stringify(got.json));
    return NetworkStatusResponse.parse(got.json).networks.find((network) => network.platform === platform)!;
  };
  const viewOf = async (token: string, platform: string) => {
    const view = (await (await fetch(`${svc.url}/api/link/session`, { headers: { Authorization: `Bearer ${token}` } })).json()) as { networks: Record<string, unknown>[] };
    return view.networks.find((network) => network.platform === platform)!;
  };
  const admin = async (...args: string[]) => {
    let out = '';
    let err = '';
    const env = { DATA_DIR: svc.dir, ...(svc.config.databaseUrl && { DATABASE_URL: svc.config.databaseUrl }) };
    const code = await runAdminCli(args, env, (text) => (out += text), (text) => (err += text));
    return { code, json: JSON.parse(code === 0 ? out : err || '{}') as Record<string, any> };
  };

  it('connect attempts the network fails make it down, for the API and the hosted page; successes keep it operational', async () => {
    const link = await svc.client.createLinkSession({ expiresIn: undefined });
    const token = new URL(link.url).searchParams.get('session')!;
    assert.equal((await statusOf('pinterest')).status, 'operational');
    for (let attempt = 0; attempt < 5; attempt++) {
      const { attempt: started, callbackUrl } = await runUntilCallback(svc, token, 'pinterest', 'network_error');
      const result = await callback(callbackUrl, started.cookie);
      assert.equal(result.data.outcome, 'error');
    }
    const down = await statusOf('pinterest');
    assert.deepEqual([down.status, down.source, down.recent], ['down', 'observed', { outcomes: 5, failures: 5 }]);
    // The page's view is at most 30 s old.
    svc.clock.advance(31_000);
    assert.equal((await viewOf(token, 'pinterest')).networkStatus, 'down');
    assert.equal((await viewOf(token, 'reddit')).networkStatus, undefined);
    // Half an hour later the failures are history.
    svc.clock.advance(30 * 60_000);
    assert.equal((await statusOf('pinterest')).status, 'operational');
  });

  it("an operator's override from the admin CLI wins until cleared; bad input is refused with the envelope", async () => {
    const set = await admin('network-status', 'set', 'tiktok', 'degraded', '--message', 'TikTok reports an incident');
    assert.equal(set.code, 0, JSON.stringify(set.json));
    const tiktok = await statusOf('tiktok');
    assert.deepEqual([tiktok.status, tiktok.source, tiktok.message], ['degraded', 'operator', 'TikTok reports an incident']);
    assert.deepEqual((await svc.client.getNetworkStatus()).networks.find((network) => network.platform === 'tiktok'), tiktok);
    assert.equal((await admin('network-status', 'clear', 'tiktok')).code, 0);
    assert.deepEqual([(await statusOf('tiktok')).status, (await statusOf('tiktok')).source], ['operational', 'observed']);
    for (const args of [['network-status', 'set', 'myspace', 'down'], ['network-status', 'set', 'tiktok', 'sideways']]) {
      const refused = await admin(...args);
      assert.equal(refused.code, 1);
      assert.equal(refused.json.status, 'error');
      assert.equal(refused.json.action, 'network status');
    }
    const unauthenticated = await fetch(`${svc.url}/api/networks/status`);
    assert.equal(unauthenticated.status, 401);
  });
});
