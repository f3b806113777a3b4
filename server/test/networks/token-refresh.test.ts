/**
 * Token refresh on a real service on loopback (SQLite, or PostgreSQL with TEST_DATABASE_URL), against the sandbox's
 * rotating refresh endpoint: an access token expiring within the margin is renewed before publishing and the new
 * refresh token stored first; a token the network rejects (401) is renewed once and the step runs again; two
 * refreshers (two instances) renewing at once make ONE network call and both end with the stored tokens;
 * invalid_grant marks the account for relinking (publish fails with `relink`, nothing retried) until it is linked
 * again.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Network } from '@social-link-kit/protocol';
import { tokenAad } from '../../src/core/crypto/token-cipher.js';
import { hashSecret } from '../../src/core/tokens.js';
import { PUBLISH_ADAPTERS } from '../../src/networks/index.js';
import type { PublishAdapter } from '../../src/networks/publish-adapter.js';
import type { ResolvedOAuthNetwork } from '../../src/networks/registry.js';
import { TokenRefresher, type RefreshableAccount } from '../../src/networks/token-refresher.js';
import type { TestService } from '../support/test-service.js';
import { startPublishingService, waitForPost } from '../publishing/publishing-fixtures.js';

describe('token refresh', () => {
  let svc: TestService;
  before(async () => {
    // Background renewals off: each test here spends or rotates the stored refresh token itself, and a renewal
    // between the test's read of that token and its use rotated it away. The health sweep's did (CI, PostgreSQL), and
    // so did an analytics snapshot of a post published here, due once the tests moved the clock on (CI, SQLite).
    svc = await startPublishingService({ env: { ACCOUNT_HEALTH_CHECKS: 'off', ANALYTICS_SNAPSHOTS: 'off' } });
  });
  after(() => svc.close());

  const link = async () => {
    const linked = await svc.api('POST', '/sandbox/accounts', { body: { platform: 'youtube' } });
    assert.equal(linked.status, 200, JSON.stringify(linked.json));
  };
  const row = async () => (await svc.sql("SELECT * FROM social_accounts WHERE profile_id = ? AND platform = 'youtube'", [svc.primaryProfile.id])).rows[0]!;
  const aad = (networkUserId: string) => tokenAad(svc.primaryProfile.id, 'youtube', networkUserId);
  const tokens = async () => {
    const current = await row();
    return JSON.parse(svc.tokenCipher.decrypt(current.tokens_encrypted, aad(current.network_user_id))) as Record<string, any>;
  };
  /** Rewrites the stored tokens (as a link long ago would have left them). */
  const storeTokens = async (change: Record<string, unknown>) => {
    const current = await row();
    const sealed = svc.tokenCipher.encrypt(JSON.stringify({ ...(await tokens()), ...change }), aad(current.network_user_id));
    await svc.sql("UPDATE social_accounts SET tokens_encrypted = ? WHERE profile_id = ? AND platform = 'youtube'", [sealed, svc.primaryProfile.id]);
  };
  const spent = async (refreshToken: string) => (await svc.sql('SELECT used_at FROM sandbox_tokens WHERE token_hash = ?', [hashSecret(refreshToken)])).rows[0]?.used_at ?? null;
  const publish = async (title: string) => {
    const created = await svc.api('POST', '/post', { body: { post: `${randomUUID()} ${title}`, platforms: ['youtube'], mediaUrls: [`${svc.url}/sandbox/media/video-3s.mp4`], isVideo: true, youTubeOptions: { title } } });
    assert.equal(created.status === 200 || created.status === 400, true, JSON.stringify(created.json));
    return created.json.id ? waitForPost(svc, created.json.id, (p) => p.status === 'success' || p.status === 'error') : created.json;
  };
  const sandboxRefresh = (refreshToken: string, secret = 'sandbox-secret') =>
    fetch(`${svc.url}/sandbox/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: 'sandbox-youtube', client_secret: secret }),
    });

  it('an access token expiring within the margin is renewed before publishing; the rotated refresh token is stored', async () => {
    await link();
    const before = await tokens();
    // A refresh token's end the answer does not give (youtube's says nothing of it) is kept.
    const refreshExpiresAt = svc.clock() + 100 * 86_400_000;
    await storeTokens({ expiresIn: 3600, obtainedAt: svc.clock() - 3_400_000, refreshExpiresAt });
    const post = await publish('renewed first');
    assert.equal(post.status, 'success', JSON.stringify(post));
    const after = await tokens();
    assert.notEqual(after.accessToken, before.accessToken);
    assert.notEqual(after.refreshToken, before.refreshToken);
    assert.ok(typeof after.refreshToken === 'string' && after.refreshToken.length > 10);
    assert.deepEqual([after.expiresIn, after.obtainedAt, after.refreshExpiresAt], [3600, svc.clock(), refreshExpiresAt]);
    assert.notEqual(await spent(before.refreshToken), null, 'the old refresh token was spent at the network');
    assert.equal(await spent(after.refreshToken), null);
  });

  it('a token the network rejects (401) is renewed once and the upload runs again', async () => {
    const before = await tokens();
    // The sandbox access token lives an hour; the stored tokens do not say when it ends, so only the 401 tells.
    await storeTokens({ expiresIn: null });
    svc.clock.advance(2 * 3600_000);
    const post = await publish('renewed after 401');
    assert.equal(post.status, 'success', JSON.stringify(post));
    const after = await tokens();
    assert.notEqual(after.refreshToken, before.refreshToken);
    assert.notEqual(await spent(before.refreshToken), null);
  });

  it('two refreshers at once (two instances): one network call, both end with the tokens stored', async () => {
    await storeTokens({ expiresIn: 3600, obtainedAt: svc.clock() - 3_500_000 });
    const before = await tokens();
    let calls = 0;
    const youtube = PUBLISH_ADAPTERS.youtube;
    const counting: PublishAdapter = {
      ...youtube,
      refresh: async (ctx) => {
        calls++;
        return youtube.refresh!(ctx);
      },
    };
    const network: ResolvedOAuthNetwork = {
      fetch,
      platform: 'youtube',
      sandbox: true,
      clientId: 'sandbox-youtube',
      clientSecret: 'sandbox-secret',
      issuer: svc.url,
      apiBase: null,
      userAgent: 'token-refresh-test',
      definition: {
        authorizationEndpoint: `${svc.url}/unused`,
        tokenEndpoint: `${svc.url}/unused`,
        refreshEndpoint: `${svc.url}/sandbox/oauth/token`,
        identityEndpoint: `${svc.url}/unused`,
        scopes: [],
        pkce: true,
        clientAuth: 'client_secret_post',
        identity: () => ({ id: 'unused', displayName: null, username: null }),
      },
    };
    const refresher = () =>
      new TokenRefresher({
        db: svc.storage.driver,
        accounts: svc.storage.linking,
        tokenCipher: svc.tokenCipher,
        clock: svc.clock,
        fetch: (url, init) => fetch(url, init),
        adapters: { ...PUBLISH_ADAPTERS, youtube: counting } as Record<Network, PublishAdapter>,
        network: () => network,
        log: () => {},
      });
    const current = await row();
    const accounts: RefreshableAccount[] = [0, 1, 2].map(() => ({ profileId: svc.primaryProfile.id, platform: 'youtube', networkUserId: current.network_user_id, tokensEncrypted: current.tokens_encrypted }));
    const results = await Promise.all(accounts.map((account) => refresher().ensureFresh(account)));
    assert.deepEqual(results, [null, null, null]);
    assert.equal(calls, 1, 'one call to the network');
    const stored = (await row()).tokens_encrypted;
    assert.ok(accounts.every((account) => account.tokensEncrypted === stored));
    assert.notEqual((await tokens()).refreshToken, before.refreshToken);
    // Forced (after a 401) by three callers holding the same rejected tokens: again one call.
    const rejected = accounts.map((account) => ({ ...account }));
    const renewed = await Promise.all(rejected.map((account) => refresher().afterRejection(account)));
    assert.deepEqual(renewed, [true, true, true]);
    assert.equal(calls, 2);

    // An answer that arrives after the service clock moved on (a slow network, a clock jump): the token's lifetime
    // counts from when it was asked for, as the network counts it, so the service renews it before the network
    // stops taking it (recorded at the answer, the stored expiry was two hours late and the next call got a 401).
    await storeTokens({ expiresIn: 3600, obtainedAt: svc.clock() - 3_500_000 });
    const askedAt = svc.clock();
    const slow: PublishAdapter = {
      ...youtube,
      refresh: async (ctx) => {
        const answer = await youtube.refresh!(ctx);
        svc.clock.advance(2 * 3_600_000);
        return answer;
      },
    };
    const slowRefresher = new TokenRefresher({ db: svc.storage.driver, accounts: svc.storage.linking, tokenCipher: svc.tokenCipher, clock: svc.clock, fetch: (url, init) => fetch(url, init), adapters: { ...PUBLISH_ADAPTERS, youtube: slow } as Record<Network, PublishAdapter>, network: () => network, log: () => {} });
    const slowAccount = { ...accounts[0]!, tokensEncrypted: (await row()).tokens_encrypted };
    assert.equal(await slowRefresher.ensureFresh(slowAccount), null);
    assert.equal((await tokens()).obtainedAt, askedAt);
    const askedAgainAt = svc.clock();
    assert.equal(await slowRefresher.ensureFresh(slowAccount), null);
    assert.equal((await tokens()).obtainedAt, askedAgainAt, 'renewed again: the first token has ended at the network');
  });

  it('invalid_grant marks the account for relinking: publish fails with relink and is not retried; a new link clears it', async () => {
    const stolen = (await tokens()).refreshToken as string;
    // Spent elsewhere (a leaked copy, or an older instance): the network will refuse it now.
    assert.equal((await sandboxRefresh(stolen)).status, 200);
    const again = await sandboxRefresh(stolen);
    assert.deepEqual([again.status, ((await again.json()) as { error: string }).error], [400, 'invalid_grant']);
    await storeTokens({ expiresIn: 3600, obtainedAt: svc.clock() - 3_500_000 });
    const failed = await publish('needs relink');
    assert.equal(failed.status, 'error', JSON.stringify(failed));
    assert.deepEqual([failed.errors[0].code, failed.errors[0].relink, failed.errors[0].retryAvailable], [401, true, false], JSON.stringify(failed.errors[0]));
    const flagged = (await svc.sql("SELECT relink_tokens_hash FROM token_refreshes WHERE profile_id = ? AND platform = 'youtube'", [svc.primaryProfile.id])).rows[0];
    assert.equal(typeof flagged?.relink_tokens_hash, 'string');
    const jobs = (await svc.sql("SELECT attempts FROM jobs WHERE subject = ? AND kind = 'publish'", [failed.id])).rows;
    assert.ok(jobs.every((job) => Number(job.attempts) <= 1), `not retried: ${JSON.stringify(jobs)}`);
    // Stays refused without calling the network again (the flag names these very tokens).
    assert.equal((await publish('refused once more')).errors[0].relink, true);
    await link();
    assert.equal((await publish('linked anew')).status, 'success');
  });

  it('the sandbox endpoint: wrong client secret → 401 invalid_client; unknown sbx token → invalid_grant; other grants refused', async () => {
    const wrong = await sandboxRefresh('sbx_rt_whatever', 'not-the-secret');
    assert.deepEqual([wrong.status, ((await wrong.json()) as { error: string }).error], [401, 'invalid_client']);
    const unknown = await sandboxRefresh('sbx_rt_unknown');
    assert.deepEqual([unknown.status, ((await unknown.json()) as { error: string }).error], [400, 'invalid_grant']);
    const grant = await fetch(`${svc.url}/sandbox/oauth/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'password', client_id: 'sandbox-youtube', client_secret: 'sandbox-secret' }) });
    assert.equal(grant.status, 400);
  });
});
