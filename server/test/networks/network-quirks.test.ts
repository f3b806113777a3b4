import assert from 'node:assert/strict';
import { readOutboundSettings } from '../../src/core/outbound-settings.js';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { OAUTH_NETWORKS } from '../../src/networks/index.js';
import type { OAuthNetworkDefinition } from '../../src/networks/oauth/definition.js';
import { createNetworkRegistry, type ResolvedOAuthNetwork } from '../../src/networks/registry.js';
import { readNetworkSettings } from '../../src/networks/network-settings.js';
import { authorizationUrl, exchangeCode, fetchIdentity } from '../../src/networks/oauth/flow.js';

/** A loopback stand-in for a network's token and identity endpoints, recording what it was sent. */
describe('real-network quirks in the OAuth client', () => {
  let server: Server;
  let base = '';
  const seen: { path: string; headers: IncomingMessage['headers']; body: string }[] = [];
  before(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk));
      req.on('end', () => {
        seen.push({ path: req.url!, headers: req.headers, body });
        res.setHeader('Content-Type', 'application/json');
        if (req.url === '/token') res.end(JSON.stringify({ access_token: 'at-1', expires_in: 3600, scope: 'a b' }));
        else res.end(JSON.stringify({ data: { user: { open_id: 'tt-42', display_name: 'Ada' } } }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const tiktokLike = (): ResolvedOAuthNetwork => {
    const definition: OAuthNetworkDefinition = {
      ...OAUTH_NETWORKS.tiktok,
      tokenEndpoint: `${base}/token`,
      identityEndpoint: `${base}/me`,
      tokenTypeMissing: true,
    };
    // `sandbox: true` only so oauth4webapi accepts the http loopback address.
    return { platform: 'tiktok', sandbox: true, clientId: 'ck-1', clientSecret: 'cs-1', issuer: base, definition, apiBase: null, userAgent: readNetworkSettings({}).userAgent, fetch };
  };

  it("puts TikTok's client_key in the authorization URL and the token request, and fills a missing token_type", async () => {
    const network = tiktokLike();
    const url = new URL(await authorizationUrl(network, { state: 's1', codeVerifier: 'v'.repeat(43), redirectUri: 'https://svc.example/cb' }));
    assert.equal(url.searchParams.get('client_key'), 'ck-1');
    assert.equal(url.searchParams.get('client_id'), null);
    assert.equal(url.searchParams.get('scope'), 'user.info.basic,video.publish');
    assert.equal(url.searchParams.get('code_challenge_method'), 'S256');

    const tokens = await exchangeCode(network, new URL('https://svc.example/cb?code=c1&state=s1'), {
      state: 's1',
      codeVerifier: 'v'.repeat(43),
      redirectUri: 'https://svc.example/cb',
    });
    assert.equal(tokens.accessToken, 'at-1');
    const token = seen.find((r) => r.path === '/token')!;
    const body = new URLSearchParams(token.body);
    assert.equal(body.get('client_key'), 'ck-1');
    assert.equal(body.get('client_secret'), 'cs-1');
    assert.equal(body.get('code_verifier'), 'v'.repeat(43));
    assert.match(String(token.headers['user-agent']), /social-link-kit/);

    const identity = await fetchIdentity(network, tokens.accessToken);
    assert.deepEqual(identity, { id: 'tt-42', displayName: 'Ada', username: null });
    assert.match(String(seen.at(-1)!.headers['user-agent']), /social-link-kit/);
  });

  it('signs instagram-through-facebook in with the Facebook app credentials', () => {
    const registry = createNetworkRegistry(
      readNetworkSettings({ INSTAGRAM_CLIENT_ID: 'ig', INSTAGRAM_CLIENT_SECRET: 'igs', FACEBOOK_CLIENT_ID: 'fb', FACEBOOK_CLIENT_SECRET: 'fbs' }),
      () => 'https://svc.example',
      readOutboundSettings({}),
    );
    const viaFacebook = registry.oauth('instagram', 'facebook')!;
    assert.equal(viaFacebook.clientId, 'fb');
    assert.match(viaFacebook.definition.authorizationEndpoint, /facebook\.com/);
    const direct = registry.oauth('instagram', 'instagram')!;
    assert.equal(direct.clientId, 'ig');
    assert.match(direct.definition.authorizationEndpoint, /instagram\.com/);
  });
});

describe('instagram link method from the account setting', () => {
  it('an account whose default is facebook sends instagram sign-ins to the Facebook login', async () => {
    const { startTestService, tokenOf } = await import('../support/test-service.js');
    const svc = await startTestService({
      account: { instagramLinkMethod: 'facebook' },
      env: { FACEBOOK_CLIENT_ID: 'fb-app', FACEBOOK_CLIENT_SECRET: 'fb-secret' },
    });
    try {
      const token = tokenOf((await svc.client.createLinkSession()).url);
      const started = await fetch(`${svc.url}/api/link/connect/instagram`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } });
      const { startUrl } = (await started.json()) as { startUrl: string };
      const redirect = await fetch(startUrl, { redirect: 'manual' });
      const location = new URL(redirect.headers.get('location')!);
      assert.equal(location.origin, 'https://www.facebook.com');
      assert.equal(location.searchParams.get('client_id'), 'fb-app');
      assert.match(location.searchParams.get('scope')!, /instagram_content_publish/);
      assert.equal(location.searchParams.get('redirect_uri'), `${svc.url}/connect/callback/instagram`);
    } finally {
      await svc.close();
    }
  });
});
