/**
 * @module
 * The sandbox OAuth networks' authorization server, on this service's own origin (the consent screen in front of
 * it is sandbox/consent-routes.ts):
 * - `POST /sandbox/oauth/token`, form, the client as `client_id`/`client_key` + `client_secret` or HTTP Basic:
 *   - `grant_type=authorization_code`: a code from the consent screen, once, within ten minutes, with the same
 *     client and `redirect_uri` and the PKCE verifier of its challenge → the user's tokens (sandbox-users.ts).
 *   - `grant_type=refresh_token`: refresh tokens ROTATE as tiktok's, twitter's or pinterest's do: each is accepted
 *     once (spent with a compare-and-set); the answer carries a new one and an access token for an hour of the
 *     service clock. tiktok's and linkedin's keep the end of the consent's (a year; `refresh_expires_in` /
 *     `refresh_token_expires_in` give the seconds left); one used after it is `invalid_grant`. The account-health
 *     test switches (refresh-switches.ts) can make it fail or shape its answer.
 *   Anything else is an OAuth error (`invalid_client` 401, `invalid_grant` / `invalid_request` 400).
 * - `GET /sandbox/oauth/token?grant_type=fb_exchange_token…`: facebook's trade for a 60-day token (meta-tokens.ts).
 * - `GET /sandbox/oauth/userinfo` (Bearer access token of that network) → `{sub, name, preferred_username}`, plus
 *   `account_type` (instagram) and `geo_eligible` (threads): the identity the link records.
 * Every token names its network and its user: a network accepts only its own, as a real one would.
 */
import type { SandboxEnv, SandboxHost } from '@social-link-kit/server/sandbox-host.js';
import { hashSecret, sandboxClientOf } from '@social-link-kit/server/sandbox-kit.js';
import { Hono, type Context } from 'hono';
import { createHash } from 'node:crypto';
import { isNetwork } from '@social-link-kit/protocol';
import { bearerOf, checkSandboxToken, issueSandboxToken, sandboxStoreOf } from './sandbox-tokens.js';
import { SANDBOX_ACCESS_TOKEN_TTL_S, issueUserTokens, refreshExpiryField } from './sandbox-users.js';
import { refreshSwitchEffect } from './refresh-switches.js';
import { answerFacebookExchange } from './meta-tokens.js';
import { answerGraphErrors } from './graph-sandbox.js';


function clientOf(c: Context<SandboxEnv>, form: URLSearchParams): { id: string; secret: string } | null {
  const basic = /^Basic\s+(\S+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
  if (basic) {
    const [id, secret] = Buffer.from(basic, 'base64').toString('utf8').split(':', 2).map((part) => decodeURIComponent(part));
    return id && secret !== undefined ? { id, secret } : null;
  }
  const id = form.get('client_id') ?? form.get('client_key');
  const secret = form.get('client_secret');
  return id && secret ? { id, secret } : null;
}

const pkceChallenge = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

export function sandboxOAuthServerRoutes(deps: SandboxHost): Hono<SandboxEnv> {
  const routes = new Hono<SandboxEnv>();
  const store = () => sandboxStoreOf(deps.storage);
  const oauthError = (c: Context<SandboxEnv>, status: 400 | 401, error: string, description: string) =>
    c.json({ error, error_description: description }, status, { 'Cache-Control': 'no-store' });

  routes.post('/token', async (c) => {
    const form = new URLSearchParams((await c.req.text()).slice(0, 16_384));
    const client = clientOf(c, form);
    const platform = client?.id.replace(/^sandbox-/, '') ?? '';
    const network = isNetwork(platform) ? deps.networks.oauth(platform, 'instagram') : null;
    if (!client || !isNetwork(platform) || !network?.sandbox || client.id !== sandboxClientOf(platform).clientId || client.secret !== sandboxClientOf(platform).clientSecret) {
      return oauthError(c, 401, 'invalid_client', 'Unknown sandbox client or wrong secret.');
    }
    const now = deps.clock();
    const grant = form.get('grant_type');
    if (grant === 'authorization_code') {
      const code = await store().useCode(hashSecret(form.get('code') ?? ''), now);
      if (!code || code.platform !== platform || code.clientId !== client.id || code.redirectUri !== form.get('redirect_uri')) {
        return oauthError(c, 400, 'invalid_grant', 'The authorization code is invalid, expired, already used or was issued to another client.');
      }
      if (code.codeChallenge !== null && code.codeChallenge !== pkceChallenge(form.get('code_verifier') ?? '')) {
        return oauthError(c, 400, 'invalid_grant', 'The PKCE code verifier does not match the challenge.');
      }
      if (code.refuseExchange) return oauthError(c, 400, 'invalid_grant', 'Sandbox: the network refused this code.');
      const user = await store().findUser(platform, { accountId: code.accountId });
      if (!user) return oauthError(c, 400, 'invalid_grant', 'The user of this code no longer exists.');
      return c.json(await issueUserTokens(store(), user, code.scope, now, SANDBOX_ACCESS_TOKEN_TTL_S), 200, { 'Cache-Control': 'no-store' });
    }
    if (grant !== 'refresh_token') return oauthError(c, 400, 'unsupported_grant_type', 'Only authorization_code and refresh_token are served here.');
    const refreshToken = form.get('refresh_token') ?? '';
    if (refreshToken === '' || refreshToken.includes('\u0000')) return oauthError(c, 400, 'invalid_request', 'refresh_token is missing.');
    const check = await checkSandboxToken(store(), refreshToken, platform, 'refresh', now);
    if (!check.ok) return oauthError(c, 400, 'invalid_grant', 'The refresh token is invalid or expired.');
    // --- account-health test switches (refresh-switches.ts): outages, invalid_grant, short tokens, fewer scopes ---
    const effect = refreshSwitchEffect(deps.storage, platform, check.accountId, now);
    if (effect.kind === 'fail') return c.json({ error: effect.error, error_description: effect.description }, effect.status, { 'Cache-Control': 'no-store' });
    const ttlS = effect.ttlS ?? SANDBOX_ACCESS_TOKEN_TTL_S;
    // --- end of the switches ---
    // Rotation: the token is spent by exactly one request; a second use (a racing or replayed refresh) is refused.
    if (!(await store().useToken(hashSecret(refreshToken), now))) return oauthError(c, 400, 'invalid_grant', 'The refresh token was already used.');
    const { accountId, handle } = check;
    const accessToken = await issueSandboxToken(store(), { platform, accountId, handle, kind: 'access', ttlMs: ttlS * 1000 }, now);
    // The new refresh token ends when the consent's did (tiktok, linkedin): rotating never extends it.
    const refreshEnd = check.expiresAt;
    const nextRefresh = await issueSandboxToken(store(), { platform, accountId, handle, kind: 'refresh', ttlMs: refreshEnd === null ? null : refreshEnd - now }, now);
    // No `scope` unless a switch narrowed it: the grant's scopes stay what the consent gave (RFC 6749 section 5.1).
    return c.json(
      {
        access_token: accessToken,
        token_type: 'Bearer',
        expires_in: ttlS,
        refresh_token: nextRefresh,
        ...refreshExpiryField(platform, refreshEnd, now),
        ...(effect.scope !== null && { scope: effect.scope }),
        open_id: accountId,
      },
      200,
      { 'Cache-Control': 'no-store' },
    );
  });

  // facebook's token endpoint also trades a user token for a long-lived one (meta-tokens.ts).
  answerGraphErrors(routes);
  routes.get('/token', async (c) => {
    if (c.req.query('grant_type') !== 'fb_exchange_token') return oauthError(c, 400, 'unsupported_grant_type', 'Only fb_exchange_token is served by GET.');
    return answerFacebookExchange(deps, c);
  });

  routes.get('/userinfo', async (c) => {
    const token = bearerOf(c.req.header('authorization'));
    // The token names its network; the identity is read once, right after the exchange, so any sandbox network's
    // token is looked up here, and only its own user is answered.
    const found = token ? await store().findToken(hashSecret(token)) : null;
    const check = found && isNetwork(found.platform) ? await checkSandboxToken(store(), token, found.platform, 'access', deps.clock()) : null;
    if (!found || !check?.ok) return c.json({ error: 'invalid_token', error_description: 'The access token is invalid or expired.' }, 401);
    const user = await store().findUser(found.platform, { accountId: check.accountId });
    if (!user) return c.json({ error: 'invalid_token', error_description: 'The user of this token no longer exists.' }, 401);
    return c.json({
      sub: user.accountId,
      name: user.displayName,
      preferred_username: user.handle,
      ...(typeof user.details.accountType === 'string' && { account_type: user.details.accountType }),
      ...(typeof user.details.geoEligible === 'boolean' && { geo_eligible: user.details.geoEligible }),
    });
  });

  return routes;
}
