/**
 * OAuth connections through the real service and the sandbox OAuth server (a real OAuth 2.0 code flow with PKCE
 * on loopback, sandbox/networks/oauth-server.ts): state single use and binding, PKCE, expiry and revocation mid-flow, and
 * how network answers map to outcomes and codes.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ErrorCode } from '@social-link-kit/protocol';
import { startTestService, tokenOf, type TestService } from '../support/test-service.js';
import {
  callback,
  connectAccount,
  consent,
  openStartUrl,
  requestStartUrl,
  runUntilCallback,
  sessionView,
} from '../support/oauth-driver.js';

const MINUTE = 60_000;

describe('OAuth connection (sandbox network)', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  const newToken = async (request: Parameters<TestService['client']['createLinkSession']>[0] = {}) =>
    tokenOf((await svc.client.createLinkSession({ origin: 'https://app.example', ...request })).url);

  it('connects: start → consent → code exchange with PKCE → identity → stored, visible in the session read', async () => {
    const token = await newToken();
    const startUrl = await requestStartUrl(svc, token, 'facebook');
    assert.ok(startUrl.startsWith(`${svc.url}/connect/start?`), startUrl);
    assert.ok(!startUrl.includes(token), 'the start URL must not carry the link token');
    const attempt = await openStartUrl(startUrl);
    // The sandbox consent page stands for a network's login: never framed, never cached, clearly labelled.
    const consentPage = await fetch(attempt.consentUrl);
    assert.match(consentPage.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
    assert.equal(consentPage.headers.get('cache-control'), 'no-store');
    assert.match(await consentPage.text(), /Sandbox network: no real Facebook account is connected/);
    assert.equal(attempt.consentUrl.searchParams.get('code_challenge_method'), 'S256');
    assert.match(attempt.consentUrl.searchParams.get('code_challenge') ?? '', /^[A-Za-z0-9_-]{43}$/);
    assert.match(attempt.state, /^[A-Za-z0-9_-]{43,}$/, 'state carries at least 256 bits');
    assert.equal(attempt.consentUrl.searchParams.get('redirect_uri'), `${svc.url}/connect/callback/facebook`);

    const result = await callback((await runAfterConsent(svc, attempt)).href, attempt.cookie);
    assert.equal(result.status, 200, result.html);
    assert.equal(result.data.outcome, 'success');
    assert.equal(result.data.platform, 'facebook');
    assert.match(result.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
    assert.equal(result.headers.get('cache-control'), 'no-store');

    const view = await sessionView(svc, token);
    const facebook = view.json.networks.find((n: { platform: string }) => n.platform === 'facebook');
    assert.equal(facebook.linked, true);
    assert.ok(facebook.displayName);
    assert.deepEqual(view.json.completedNetworks, ['facebook']);
    const session = await svc.client.getLinkSession(view.json.sessionId);
    assert.deepEqual(session.completedNetworks, ['facebook']);
    assert.ok(session.completedAt);
  });

  it('a state is single use: a replay from the same browser shows the stored outcome and changes nothing; from another, 511', async () => {
    const token = await newToken();
    const { attempt, callbackUrl } = await runUntilCallback(svc, token, 'linkedin');
    const first = await callback(callbackUrl, attempt.cookie);
    assert.equal(first.data.outcome, 'success');
    const before = await sessionView(svc, token);
    svc.clock.advance(1000);
    const replay = await callback(callbackUrl, attempt.cookie);
    assert.equal(replay.status, 200);
    assert.equal(replay.data.outcome, 'success');
    assert.deepEqual(await sessionView(svc, token), { ...before, json: { ...before.json, serverTime: new Date(svc.clock()).toISOString() } });
    const elsewhere = await callback(callbackUrl, null);
    assert.equal(elsewhere.status, 400);
    assert.equal(elsewhere.data.outcome, 'error');
    assert.equal(Number(elsewhere.data.code), ErrorCode.oauthStateInvalid);
    const read = await svc.client.getLinkSession((await sessionView(svc, token)).json.sessionId);
    assert.equal(read.lastCompletedAt, read.completedAt, 'the replay did not complete the network again');
  });

  it('a start URL is single use', async () => {
    const token = await newToken();
    const startUrl = await requestStartUrl(svc, token, 'youtube');
    await openStartUrl(startUrl);
    const again = await fetch(startUrl, { redirect: 'manual' });
    assert.equal(again.status, 400);
    assert.match(await again.text(), /data-code="511"/);
  });

  it('refuses a callback without the binding cookie (another browser), and the state is then spent', async () => {
    const token = await newToken();
    const { attempt, callbackUrl } = await runUntilCallback(svc, token, 'twitter');
    const noCookie = await callback(callbackUrl, null);
    assert.equal(noCookie.status, 400);
    assert.equal(Number(noCookie.data.code), ErrorCode.oauthStateInvalid);
    const withCookie = await callback(callbackUrl, attempt.cookie);
    assert.equal(Number(withCookie.data.code), ErrorCode.oauthStateInvalid, 'a refused state must not be reusable');
    assert.equal((await sessionView(svc, token)).json.completedNetworks.length, 0);
  });

  it("refuses another session's state: the cookie of session B cannot complete session A's attempt", async () => {
    const tokenA = await newToken();
    const tokenB = await newToken();
    const a = await runUntilCallback(svc, tokenA, 'reddit');
    const b = await openStartUrl(await requestStartUrl(svc, tokenB, 'reddit'));
    const crossed = await callback(a.callbackUrl, b.cookie);
    assert.equal(Number(crossed.data.code), ErrorCode.oauthStateInvalid);
    assert.equal((await sessionView(svc, tokenA)).json.completedNetworks.length, 0);
    assert.equal((await sessionView(svc, tokenB)).json.completedNetworks.length, 0);
  });

  it("refuses a state delivered to another network's callback (mix-up)", async () => {
    const token = await newToken();
    const { attempt, callbackUrl } = await runUntilCallback(svc, token, 'pinterest');
    const other = new URL(callbackUrl);
    other.pathname = '/connect/callback/tiktok';
    const crossed = await callback(other, attempt.cookie);
    assert.equal(Number(crossed.data.code), ErrorCode.oauthStateInvalid);
  });

  it('refuses a forged state', async () => {
    const token = await newToken();
    const { attempt, callbackUrl } = await runUntilCallback(svc, token, 'gmb');
    const forged = new URL(callbackUrl);
    // One character changed, never the same: a suffix like "AA" was the real state once in a thousand runs.
    const firstCharacter = attempt.state[0] === 'A' ? 'B' : 'A';
    forged.searchParams.set('state', firstCharacter + attempt.state.slice(1));
    const result = await callback(forged, attempt.cookie);
    assert.equal(Number(result.data.code), ErrorCode.oauthStateInvalid, `${result.status} ${result.html.slice(0, 300)}`);
  });

  it('a state older than 10 minutes is refused even when the session is still valid', async () => {
    const token = await newToken({ expiresIn: 60 });
    const { attempt, callbackUrl } = await runUntilCallback(svc, token, 'threads');
    svc.clock.advance(10 * MINUTE + 1000);
    const late = await callback(callbackUrl, attempt.cookie);
    assert.equal(Number(late.data.code), ErrorCode.oauthStateInvalid);
    assert.equal((await sessionView(svc, token)).json.completedNetworks.length, 0);
  });

  it('a wrong PKCE verifier is refused by the authorization server (512), nothing is stored', async () => {
    const token = await newToken();
    const { attempt, callbackUrl } = await runUntilCallback(svc, token, 'snapchat');
    // Swap the stored verifier behind the service's back: the authorization server must reject the exchange.
    const changed = await svc.sql("UPDATE oauth_attempts SET code_verifier = ? WHERE platform = 'snapchat' AND used_at IS NULL", ['x'.repeat(43)]);
    assert.equal(changed.changes, 1);
    const result = await callback(callbackUrl, attempt.cookie);
    assert.equal(result.status, 400);
    assert.equal(result.data.outcome, 'error');
    assert.equal(Number(result.data.code), ErrorCode.oauthExchangeFailed);
    assert.equal((await sessionView(svc, token)).json.completedNetworks.length, 0);
  });

  it('access_denied from the network is a cancellation with reason denied', async () => {
    const token = await newToken();
    const result = await connectAccount(svc, token, 'instagram', 'deny');
    assert.equal(result.data.outcome, 'cancelled');
    assert.equal(result.data.reason, 'denied');
    assert.equal(result.data.platform, 'instagram');
  });

  it('any other network error is 513 with a clear message', async () => {
    const token = await newToken();
    const result = await connectAccount(svc, token, 'instagram', 'network_error');
    assert.equal(result.data.outcome, 'error');
    assert.equal(Number(result.data.code), ErrorCode.connectFailed);
    assert.match(result.data.message ?? '', /network/i);
  });

  it('a refused code exchange is 512', async () => {
    const token = await newToken();
    const result = await connectAccount(svc, token, 'youtube', 'token_error');
    assert.equal(Number(result.data.code), ErrorCode.oauthExchangeFailed);
    assert.equal((await sessionView(svc, token)).json.completedNetworks.length, 0);
  });

  it('expiry mid-flow: the callback after expiresAt stores nothing', async () => {
    const token = await newToken({ expiresIn: 2 });
    const { attempt, callbackUrl } = await runUntilCallback(svc, token, 'tiktok');
    svc.clock.advance(2 * MINUTE + 1000);
    const result = await callback(callbackUrl, attempt.cookie);
    assert.equal(result.data.outcome, 'error');
    assert.notEqual(Number(result.data.code), 0);
    assert.equal((await sessionView(svc, token)).status, 401);
    const accounts = await svc.storage.linking.listSocialAccounts(svc.primaryProfile.id);
    assert.ok(!accounts.some((a) => a.platform === 'tiktok'));
  });

  it('revocation mid-flow: the callback after revoke stores nothing', async () => {
    const session = await svc.client.createLinkSession({ origin: 'https://app.example', allowedSocial: ['pinterest'] });
    const token = tokenOf(session.url);
    const { attempt, callbackUrl } = await runUntilCallback(svc, token, 'pinterest');
    const before = (await svc.storage.linking.findSocialAccount(svc.primaryProfile.id, 'pinterest'))?.linkedAt ?? null;
    await svc.client.revokeLinkSession(session.sessionId);
    const result = await callback(callbackUrl, attempt.cookie);
    assert.equal(result.data.outcome, 'error');
    assert.equal((await svc.client.getLinkSession(session.sessionId)).completedNetworks.length, 0);
    const afterLinked = (await svc.storage.linking.findSocialAccount(svc.primaryProfile.id, 'pinterest'))?.linkedAt ?? null;
    assert.equal(afterLinked, before, 'no account may be written after revocation');
  });

  it('a start after expiry or revocation is refused with 501 before anything reaches the network', async () => {
    const session = await svc.client.createLinkSession({ origin: 'https://app.example' });
    const token = tokenOf(session.url);
    await svc.client.revokeLinkSession(session.sessionId);
    const response = await fetch(`${svc.url}/api/link/connect/facebook`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } });
    assert.equal(response.status, 401);
    assert.equal(((await response.json()) as { code: number }).code, ErrorCode.linkInvalid);
  });

  it('a network outside allowedSocial is refused with 502; an unknown network with 163', async () => {
    const token = await newToken({ allowedSocial: ['facebook'] });
    const notAllowed = await fetch(`${svc.url}/api/link/connect/linkedin`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } });
    assert.equal(notAllowed.status, 403);
    assert.equal(((await notAllowed.json()) as { code: number }).code, ErrorCode.networkNotAllowed);
    const unknown = await fetch(`${svc.url}/api/link/connect/myspace`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } });
    assert.equal(((await unknown.json()) as { code: number }).code, ErrorCode.platformInvalid);
  });

  it('disconnects from the hosted page API; the session read shows it unlinked', async () => {
    const token = await newToken();
    assert.equal((await connectAccount(svc, token, 'linkedin')).data.outcome, 'success');
    const response = await fetch(`${svc.url}/api/link/accounts/linkedin`, { method: 'DELETE', headers: { Authorization: `Bearer ${token}` } });
    assert.equal(response.status, 200);
    const view = await sessionView(svc, token);
    assert.equal(view.json.networks.find((n: { platform: string }) => n.platform === 'linkedin').linked, false);
  });

  it('instagramLinkMethod facebook uses the facebook login with instagram scopes', async () => {
    const token = await newToken({ instagramLinkMethod: 'facebook' });
    const attempt = await openStartUrl(await requestStartUrl(svc, token, 'instagram'));
    assert.equal(attempt.consentUrl.searchParams.get('redirect_uri'), `${svc.url}/connect/callback/instagram`);
    const scope = attempt.consentUrl.searchParams.get('scope') ?? '';
    assert.match(scope, /instagram/);
  });
});

/** consent(allow) then the authorization server's redirect to our callback. */
async function runAfterConsent(svc: TestService, attempt: Awaited<ReturnType<typeof openStartUrl>>): Promise<URL> {
  return consent(svc, attempt, 'allow');
}
