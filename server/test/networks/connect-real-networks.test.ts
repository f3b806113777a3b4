/**
 * Which way a network connects, chosen by the environment: with `<NETWORK>_CLIENT_ID`/`_SECRET` the start step
 * sends the browser to the network's real authorization endpoint (checked here without contacting it), with
 * `SANDBOX_NETWORKS=all` everything runs in the sandbox, with `off` an unconfigured network is 503.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ErrorCode } from '@social-link-kit/protocol';
import { requestStartUrl } from '../support/oauth-driver.js';
import { startTestService, tokenOf } from '../support/test-service.js';

const CREDENTIALS = {
  LINKEDIN_CLIENT_ID: 'li-client',
  LINKEDIN_CLIENT_SECRET: 'li-secret',
  TWITTER_CLIENT_ID: 'tw-client',
  TWITTER_CLIENT_SECRET: 'tw-secret',
  YOUTUBE_CLIENT_ID: 'yt-client',
  YOUTUBE_CLIENT_SECRET: 'yt-secret',
  TIKTOK_CLIENT_ID: 'tt-client-key',
  TIKTOK_CLIENT_SECRET: 'tt-secret',
  FACEBOOK_CLIENT_ID: 'fb-app',
  FACEBOOK_CLIENT_SECRET: 'fb-secret',
  INSTAGRAM_CLIENT_ID: 'ig-app',
  INSTAGRAM_CLIENT_SECRET: 'ig-secret',
};

/** The start step's redirect (the network's authorization request), without following it. */
async function authorizationRequest(startUrl: string): Promise<URL> {
  const response = await fetch(startUrl, { redirect: 'manual' });
  assert.equal(response.status, 302, await response.text());
  return new URL(response.headers.get('location')!);
}

describe('real network configuration', () => {
  it('with credentials, the start goes to the real endpoint with the client id, own redirect URI, scopes, state', async () => {
    const svc = await startTestService({ env: CREDENTIALS });
    try {
      const token = tokenOf((await svc.client.createLinkSession()).url);

      const linkedin = await authorizationRequest(await requestStartUrl(svc, token, 'linkedin'));
      assert.equal(`${linkedin.origin}${linkedin.pathname}`, 'https://www.linkedin.com/oauth/v2/authorization');
      assert.equal(linkedin.searchParams.get('client_id'), 'li-client');
      assert.equal(linkedin.searchParams.get('response_type'), 'code');
      assert.equal(linkedin.searchParams.get('redirect_uri'), `${svc.url}/connect/callback/linkedin`);
      assert.deepEqual(linkedin.searchParams.get('scope')?.split(' '), ['openid', 'profile', 'w_member_social']);
      assert.match(linkedin.searchParams.get('state') ?? '', /^[A-Za-z0-9_-]{43,}$/);
      // The secret never travels in the browser.
      assert.ok(!linkedin.href.includes('li-secret'));

      const twitter = await authorizationRequest(await requestStartUrl(svc, token, 'twitter'));
      assert.equal(twitter.host, 'x.com');
      assert.equal(twitter.searchParams.get('code_challenge_method'), 'S256', 'X requires PKCE');
      assert.ok(twitter.searchParams.get('scope')?.split(' ').includes('offline.access'));

      const youtube = await authorizationRequest(await requestStartUrl(svc, token, 'youtube'));
      assert.equal(youtube.host, 'accounts.google.com');
      assert.equal(youtube.searchParams.get('access_type'), 'offline');
      assert.equal(youtube.searchParams.get('code_challenge_method'), 'S256');

      // TikTok names its client id `client_key`.
      const tiktok = await authorizationRequest(await requestStartUrl(svc, token, 'tiktok'));
      assert.equal(tiktok.host, 'www.tiktok.com');
      assert.equal(tiktok.searchParams.get('client_key'), 'tt-client-key');
      assert.equal(tiktok.searchParams.get('scope'), 'user.info.basic,video.publish');

      // instagram: its own login by default, the Facebook app's login with instagramLinkMethod facebook.
      const direct = await authorizationRequest(await requestStartUrl(svc, token, 'instagram'));
      assert.equal(direct.host, 'www.instagram.com');
      assert.equal(direct.searchParams.get('client_id'), 'ig-app');
      const viaFacebookToken = tokenOf((await svc.client.createLinkSession({ instagramLinkMethod: 'facebook' })).url);
      const viaFacebook = await authorizationRequest(await requestStartUrl(svc, viaFacebookToken, 'instagram'));
      assert.equal(viaFacebook.host, 'www.facebook.com');
      assert.equal(viaFacebook.searchParams.get('client_id'), 'fb-app');
      assert.equal(viaFacebook.searchParams.get('redirect_uri'), `${svc.url}/connect/callback/instagram`);

      // Networks without credentials still run in the sandbox beside them.
      const reddit = await authorizationRequest(await requestStartUrl(svc, token, 'reddit'));
      assert.equal(`${reddit.origin}${reddit.pathname}`, `${svc.url}/sandbox/authorize`);
    } finally {
      await svc.close();
    }
  });

  it('SANDBOX_NETWORKS=all sends every network to the sandbox even with credentials', async () => {
    const svc = await startTestService({ env: { ...CREDENTIALS, SANDBOX_NETWORKS: 'all' } });
    try {
      const token = tokenOf((await svc.client.createLinkSession()).url);
      const linkedin = await authorizationRequest(await requestStartUrl(svc, token, 'linkedin'));
      assert.equal(`${linkedin.origin}${linkedin.pathname}`, `${svc.url}/sandbox/authorize`);
    } finally {
      await svc.close();
    }
  });

  it('SANDBOX_NETWORKS=off: a network without credentials is unavailable (503), one with credentials works', async () => {
    const svc = await startTestService({ env: { ...CREDENTIALS, SANDBOX_NETWORKS: 'off' } });
    try {
      const token = tokenOf((await svc.client.createLinkSession()).url);
      const response = await fetch(`${svc.url}/api/link/connect/reddit`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } });
      assert.equal(response.status, 503);
      const json = (await response.json()) as { code: number; status: string };
      assert.equal(json.code, ErrorCode.networkUnavailable);
      assert.equal(json.status, 'error');
      const linkedin = await authorizationRequest(await requestStartUrl(svc, token, 'linkedin'));
      assert.equal(linkedin.host, 'www.linkedin.com');
    } finally {
      await svc.close();
    }
  });
});
