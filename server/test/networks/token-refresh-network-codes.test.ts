/**
 * Token refresh failures the networks name themselves, on a real service on loopback. gmb (Google access tokens last
 * an hour) renews an expiring token before the local post against the sandbox's rotating endpoint; when Google's
 * token endpoint is down (a real HTTP server on loopback answering 503) the renewal after a rejected token reports
 * 519, retryable, and the account stays connected. linkedin: a refresh its app configuration forbids
 * (`unauthorized_client`) is 524, not retried and not a relink.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Network } from '@social-link-kit/protocol';
import { tokenAad } from '../../src/core/crypto/token-cipher.js';
import { PUBLISH_ADAPTERS } from '../../src/networks/index.js';
import type { PublishAdapter } from '../../src/networks/publish-adapter.js';
import type { ResolvedOAuthNetwork } from '../../src/networks/registry.js';
import { TokenRefresher } from '../../src/networks/token-refresher.js';
import type { TestService } from '../support/test-service.js';
import { startPublishingService, waitForPost } from '../publishing/publishing-fixtures.js';

describe('token refresh failures named by the network', () => {
  let svc: TestService;
  let googleDown: Server;
  let tokenRequests = 0;
  before(async () => {
    svc = await startPublishingService();
    // The networks' token endpoints in a bad moment: Google down, LinkedIn refusing refresh for this app.
    googleDown = createServer((request, response) => {
      tokenRequests++;
      if (request.url === '/linkedin') {
        response.writeHead(400, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error: 'unauthorized_client', error_description: 'Programmatic refresh tokens are not enabled for this application' }));
      } else response.writeHead(503, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error: 'temporarily_unavailable' }));
    });
    await new Promise<void>((resolve) => googleDown.listen(0, '127.0.0.1', resolve));
  });
  after(async () => {
    await new Promise((resolve) => googleDown.close(resolve));
    await svc.close();
  });

  const row = async (platform = 'gmb') => (await svc.sql('SELECT * FROM social_accounts WHERE profile_id = ? AND platform = ?', [svc.primaryProfile.id, platform])).rows[0]!;
  const tokens = async () => {
    const current = await row();
    return JSON.parse(svc.tokenCipher.decrypt(current.tokens_encrypted, tokenAad(svc.primaryProfile.id, 'gmb', current.network_user_id))) as Record<string, any>;
  };
  const storeTokens = async (change: Record<string, unknown>) => {
    const current = await row();
    const sealed = svc.tokenCipher.encrypt(JSON.stringify({ ...(await tokens()), ...change }), tokenAad(svc.primaryProfile.id, 'gmb', current.network_user_id));
    await svc.sql("UPDATE social_accounts SET tokens_encrypted = ? WHERE profile_id = ? AND platform = 'gmb'", [sealed, svc.primaryProfile.id]);
  };

  it('an expiring access token is renewed before the local post; the rotated refresh token is stored', async () => {
    const linked = await svc.api('POST', '/sandbox/accounts', { body: { platform: 'gmb' } });
    assert.equal(linked.status, 200, JSON.stringify(linked.json));
    const before = await tokens();
    await storeTokens({ expiresIn: 3600, obtainedAt: svc.clock() - 3_500_000 });
    const created = await svc.api('POST', '/post', { body: { post: `${randomUUID()} opening hours`, platforms: ['gmb'] } });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    const post = await waitForPost(svc, created.json.id, (p) => p.status === 'success' || p.status === 'error');
    assert.equal(post.status, 'success', JSON.stringify(post));
    const after = await tokens();
    assert.notEqual(after.accessToken, before.accessToken);
    assert.notEqual(after.refreshToken, before.refreshToken);
  });

  /** A refresher whose network's token endpoint is the bad-moment server at `path`. */
  const refresherTo = (platform: ResolvedOAuthNetwork['platform'], path: string) => {
    const network: ResolvedOAuthNetwork = {
      fetch,
      platform,
      sandbox: true,
      clientId: `sandbox-${platform}`,
      clientSecret: 'sandbox-secret',
      issuer: svc.url,
      apiBase: null,
      userAgent: 'token-refresh-network-codes-test',
      definition: {
        authorizationEndpoint: `${svc.url}/unused`,
        tokenEndpoint: `http://127.0.0.1:${(googleDown.address() as { port: number }).port}${path}`,
        identityEndpoint: `${svc.url}/unused`,
        scopes: [],
        pkce: true,
        clientAuth: 'client_secret_post',
        identity: () => ({ id: 'unused', displayName: null, username: null }),
      },
    };
    return new TokenRefresher({
      db: svc.storage.driver,
      accounts: svc.storage.linking,
      tokenCipher: svc.tokenCipher,
      clock: svc.clock,
      fetch: (url, init) => fetch(url, init),
      adapters: PUBLISH_ADAPTERS as Record<Network, PublishAdapter>,
      network: () => network,
      log: () => {},
    });
  };

  for (const [platform, path, code, retryAvailable] of [
    ['gmb', '/google', 519, true],
    ['linkedin', '/linkedin', 524, false],
  ] as const) {
    it(`${platform}: the renewal after a rejected token is ${code} (retry ${retryAvailable}), and the account stays connected`, async () => {
      if (platform !== 'gmb') assert.equal((await svc.api('POST', '/sandbox/accounts', { body: { platform } })).status, 200);
      const current = await row(platform);
      const refresher = refresherTo(platform, path);
      const account = { profileId: svc.primaryProfile.id, platform, networkUserId: current.network_user_id, tokensEncrypted: current.tokens_encrypted };
      const asked = tokenRequests;
      const outcome = await refresher.afterRejection(account);
      assert.equal(tokenRequests, asked + 1, 'the token endpoint was asked');
      assert.ok(typeof outcome === 'object', `the failure is reported: ${JSON.stringify(outcome)}`);
      assert.deepEqual([outcome.code, outcome.retryAvailable, outcome.relink], [code, retryAvailable, false]);
      assert.equal(await refresher.needsRelink(account), false, 'the account stays connected');
      assert.equal((await row(platform)).tokens_encrypted, current.tokens_encrypted, 'the stored tokens are kept');
    });
  }
});
