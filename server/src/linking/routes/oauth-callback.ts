/**
 * @module
 * The top-level half of an OAuth connection, in the popup the hosted page opened:
 * - `GET /connect/start?ticket=…`         one-time ticket → binding cookie + fresh state → 302 to the network
 * - `GET /connect/callback/:platform`     the network's redirect: checks state (single use, ≤10 min, bound to
 *   session, network and this browser's cookie), exchanges the code once, reads the identity, encrypts the
 *   tokens and commits the account — re-checking expiry and revocation inside the transaction.
 */
import { Hono, type Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { ErrorCode, isNetwork, type Network } from '@social-link-kit/protocol';
import type { AppDeps } from '../../app-deps.js';
import type { AppEnv } from '../../context.js';
import { NetworkFlowError, authorizationUrl, exchangeCode, fetchIdentity, tokensToKeep } from '../../networks/oauth/flow.js';
import type { OAuthAttempt } from '../../core/db/storage-types.js';
import { hashSecret, newSecret } from '../../core/tokens.js';
import { commitLinkedAccount, findUsableSession, oauthNetworkFor } from '../service.js';
import { CONNECT_PAGE_HEADERS, RESULT_SCRIPT, RESULT_STYLES, connectResultPage, type ConnectOutcome } from './connect-result-page.js';
import { describe, CSS, HTML, JS, content } from '../../core/openapi/describe.js';
import { z } from 'zod';

export function oauthCallbackRoutes(deps: Pick<AppDeps, 'config' | 'storage' | 'clock' | 'networks' | 'tokenCipher' | 'log'>): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const secure = deps.config.publicUrl.startsWith('https://');
  // `__Host-` pins the cookie to this exact origin; it requires https, so plain loopback http uses a plain name.
  const cookieName = secure ? '__Host-slk_bind' : 'slk_bind';
  const render = (c: Context<AppEnv>, result: ConnectOutcome) =>
    c.html(connectResultPage(result), result.outcome === 'error' ? 400 : 200, CONNECT_PAGE_HEADERS);
  const failure = (c: Context<AppEnv>, platform: Network | null, code: number, message: string) =>
    render(c, { outcome: 'error', platform, code, message });

  routes.get('/result.js', describe({ summary: 'Script of the connect result page', tag: 'Browser', auth: 'none', response: JS }), (c) => c.body(RESULT_SCRIPT, 200, { 'Content-Type': 'text/javascript; charset=utf-8', ...CONNECT_PAGE_HEADERS }));
  routes.get('/result.css', describe({ summary: 'Stylesheet of the connect result page', tag: 'Browser', auth: 'none', response: CSS }), (c) => c.body(RESULT_STYLES, 200, { 'Content-Type': 'text/css; charset=utf-8', ...CONNECT_PAGE_HEADERS }));

  routes.get('/start', describe({ summary: 'Opens the network sign-in (one-time ticket)', tag: 'Browser', auth: 'none', query: z.object({ ticket: z.string() }), response: content('text/html', 'Redirect (302) to the network.') }), async (c) => {
    const ticket = c.req.query('ticket') ?? '';
    const binding = newSecret();
    const state = newSecret();
    const now = deps.clock();
    const attempt = await deps.storage.linking.startOAuthAttempt(hashSecret(ticket), { bindingHash: hashSecret(binding), stateHash: hashSecret(state) }, now);
    if (!attempt) return failure(c, null, ErrorCode.oauthStateInvalid, 'This connection link has expired or was already used. Start again from the linking page.');
    const session = await findUsableSession(deps, attempt.sessionId, now);
    if (!session) return failure(c, attempt.platform, ErrorCode.linkInvalid, 'This link has expired or is no longer valid.');
    const network = await oauthNetworkFor(deps, session, attempt.platform);
    if (!network) return failure(c, attempt.platform, ErrorCode.networkUnavailable, 'This network cannot be connected right now.');
    setCookie(c, cookieName, binding, { path: '/', httpOnly: true, secure, sameSite: 'Lax', maxAge: 600 });
    const location = await authorizationUrl(network, { state, codeVerifier: attempt.codeVerifier, redirectUri: redirectUriFor(deps, attempt.platform) });
    // The address carries a fresh single-use state: no cache may keep or replay it.
    c.header('Cache-Control', 'no-store');
    c.header('Referrer-Policy', 'no-referrer');
    return c.redirect(location, 302);
  });

  routes.get('/callback/:platform', describe({ summary: "The network's OAuth redirect URI", tag: 'Browser', auth: 'none', query: z.object({ state: z.string(), code: z.string().optional(), error: z.string().optional(), error_description: z.string().optional() }), response: HTML }), async (c) => {
    const platformParam = c.req.param('platform');
    const platform = isNetwork(platformParam) ? platformParam : null;
    const state = c.req.query('state') ?? '';
    const stateHash = hashSecret(state);
    const now = deps.clock();
    const cookie = getCookie(c, cookieName);
    const sameBrowserAndNetwork = (attempt: OAuthAttempt) =>
      attempt.platform === platform && !!cookie && hashSecret(cookie) === attempt.bindingHash;
    const attempt = state ? await deps.storage.linking.useOAuthAttempt(stateHash, now) : null;
    if (!attempt || !platform || !sameBrowserAndNetwork(attempt)) {
      // A replay from the browser that ran the attempt (a reload of this page) gets the outcome it already saw,
      // without a second code exchange (checklist D.23).
      const earlier = state && !attempt ? await deps.storage.linking.findOAuthAttempt(stateHash) : null;
      if (earlier?.outcome && sameBrowserAndNetwork(earlier)) return render(c, JSON.parse(earlier.outcome) as ConnectOutcome);
      // One answer for unknown, reused, expired, cross-network and cross-browser states.
      return render(c, {
        outcome: 'error',
        platform,
        code: ErrorCode.oauthStateInvalid,
        message: 'This sign-in could not be matched to your linking session. Start again from the linking page.',
      });
    }
    const result = await completeAttempt(c, attempt, platform, state, now);
    await deps.storage.linking.recordOAuthOutcome(stateHash, JSON.stringify(result));
    return render(c, result);
  });

  /** Everything after a valid state: the network's answer, the code exchange, the identity, the commit. */
  async function completeAttempt(c: Context<AppEnv>, attempt: OAuthAttempt, platform: Network, state: string, now: number): Promise<ConnectOutcome> {
    const error = c.req.query('error');
    if (error === 'access_denied') return { outcome: 'cancelled', platform, reason: 'denied' };
    if (error) {
      const description = (c.req.query('error_description') ?? error).slice(0, 200);
      return { outcome: 'error', platform, code: ErrorCode.connectFailed, message: `The network reported an error: ${description}` };
    }
    const linkEnded: ConnectOutcome = { outcome: 'error', platform, code: ErrorCode.linkInvalid, message: 'This link has expired or is no longer valid.' };
    const session = await findUsableSession(deps, attempt.sessionId, now);
    if (!session) return linkEnded;
    const network = await oauthNetworkFor(deps, session, platform);
    if (!network) return { outcome: 'error', platform, code: ErrorCode.networkUnavailable, message: 'This network cannot be connected right now.' };

    try {
      const exchanged = await exchangeCode(network, new URL(c.req.url), { state, codeVerifier: attempt.codeVerifier, redirectUri: redirectUriFor(deps, platform) });
      const identity = await fetchIdentity(network, exchanged.accessToken);
      const { refreshExpiresIn, ...tokens } = await tokensToKeep(network, exchanged, identity);
      const result = await commitLinkedAccount(deps, session, {
        platform,
        networkUserId: identity.id,
        displayName: identity.displayName,
        username: identity.username,
        accountType: identity.accountType ?? null,
        sandbox: network.sandbox,
        // Absolute ends, counted from when the exchange was asked for (as the refresher counts them).
        tokens: { ...tokens, obtainedAt: now, ...(refreshExpiresIn !== null && { refreshExpiresAt: now + refreshExpiresIn * 1000 }) },
        linkedAt: now,
      });
      if (!result.stored && result.reason === 'suspended') {
        return { outcome: 'error', platform, code: ErrorCode.profileSuspended, message: 'This profile is suspended: no account can be linked to it until the integrator lifts the suspension.' };
      }
      if (!result.stored) return { ...linkEnded, message: 'This link expired or was revoked before the account could be saved.' };
      return { outcome: 'success', platform };
    } catch (flowError) {
      if (!(flowError instanceof NetworkFlowError)) throw flowError;
      deps.log(`connect ${platform} failed: ${flowError.message}`);
      return { outcome: 'error', platform, code: ErrorCode.oauthExchangeFailed, message: flowError.message };
    }
  }

  return routes;
}

/** Each network has its own redirect URI (mix-up defence), checked against the attempt's network. */
function redirectUriFor(deps: Pick<AppDeps, 'config'>, platform: Network): string {
  return `${deps.config.publicUrl}/connect/callback/${platform}`;
}
