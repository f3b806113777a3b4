/**
 * gmb token refresh (Google access tokens last an hour) on a real service on loopback against the sandbox's
 * rotating refresh endpoint: an expiring token is renewed before the local post is made; when Google's token
 * endpoint is down (a real HTTP server on loopback answering 503) the renewal after a rejected token reports 519,
 * retryable, and the account stays connected (no relink flag).
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Network } from '../../../src/protocol/index.js';
import { tokenAad } from '../../src/core/crypto/token-cipher.js';
import { PUBLISH_ADAPTERS } from '../../src/networks/publish-adapters.js';
import type { PublishAdapter } from '../../src/networks/publish-adapter.js';
import type { ResolvedOAuthNetwork } from '../../src/networks/registry.js';
import { TokenRefresher } from '../../src/networks/token-refresher.js';
import type { TestService } from '../support/test-service.js';
import { startPublishingService, waitForPost } from '../publishing/publishing-fixtures.js';

describe('gmb token refresh', () => {
  let svc: TestService;
  let googleDown: Server;
  let tokenRequests = 0;
  before(async () => {
    svc = await startPublishingService();
    googleDown = createServer((_request, response) => {
      tokenRequests++;
      response.writeHead(503, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error: 'temporarily_unavailable' }));
    });
    await new Promise<void>((resolve) => googleDown.listen(0, '127.0.0.1', resolve));
  });
  after(async () => {
    await new Promise((resolve) => googleDown.close(resolve));
    await svc.close();
  });

  const row = async () => (await svc.sql("SELECT * FROM social_accounts WHERE profile_id = ? AND platform = 'gmb'", [svc.primaryProfile.id])).rows[0]!;
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

  it("Google's token endpoint down: the renewal after a rejected token is 519, retryable, and the account stays connected", async () => {
    const current = await row();
    const network: ResolvedOAuthNetwork = {
      platform: 'gmb',
      sandbox: true,
      clientId: 'sandbox-gmb',
      clientSecret: 'sandbox-secret',
      issuer: svc.url,
      userAgent: 'gmb-refresh-test',
      definition: {
        authorizationEndpoint: `${svc.url}/unused`,
        tokenEndpoint: `http://127.0.0.1:${(googleDown.address() as { port: number }).port}/token`,
        identityEndpoint: `${svc.url}/unused`,
        scopes: [],
        pkce: true,
        clientAuth: 'client_secret_post',
        identity: () => ({ id: 'unused', displayName: null, username: null }),
      },
    };
    const refresher = new TokenRefresher({
      db: svc.storage.driver,
      tokenCipher: svc.tokenCipher,
      clock: svc.clock,
      fetch: (url, init) => fetch(url, init),
      adapters: PUBLISH_ADAPTERS as Record<Network, PublishAdapter>,
      network: () => network,
      log: () => {},
    });
    const account = { profileId: svc.primaryProfile.id, platform: 'gmb' as const, networkUserId: current.network_user_id, tokensEncrypted: current.tokens_encrypted };
    const outcome = await refresher.afterRejection(account);
    assert.equal(tokenRequests, 1, 'the token endpoint was asked');
    assert.ok(typeof outcome === 'object', `an outage is reported: ${JSON.stringify(outcome)}`);
    assert.deepEqual([outcome.code, outcome.retryAvailable, outcome.relink], [519, true, false]);
    assert.equal(await refresher.needsRelink(account), false, 'the account stays connected');
    assert.equal((await row()).tokens_encrypted, current.tokens_encrypted, 'the stored tokens are kept');
  });
});
