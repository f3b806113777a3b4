/**
 * @module
 * The sandbox networks' refresh endpoint, `POST /sandbox/oauth/token` (form: `grant_type=refresh_token`,
 * `refresh_token`, the client as `client_id`/`client_key` + `client_secret` or HTTP Basic), the `refreshEndpoint`
 * of every sandbox OAuth network. Refresh tokens ROTATE as tiktok's, twitter's or pinterest's do: each is accepted
 * once (spent with a compare-and-set), the answer carries a new one and an access token that expires in an hour of
 * the service clock. A spent or unknown sandbox refresh token → 400 `invalid_grant`. Refresh tokens this sandbox
 * did not issue come from the sandbox authorization server (accounts linked on the consent page): those are passed
 * on to its own token endpoint.
 */
import { Hono, type Context } from 'hono';
import type { AppDeps, AppEnv } from '../../context.js';
import { createGuardedFetch } from '../../core/guarded-fetch.js';
import { hashSecret } from '../../core/tokens.js';
import { isNetwork } from '../../../../src/protocol/index.js';
import { checkSandboxToken, issueSandboxToken, sandboxStoreOf } from './sandbox-tokens.js';

export const SANDBOX_ACCESS_TOKEN_TTL_S = 3600;

function clientOf(c: Context<AppEnv>, form: URLSearchParams): { id: string; secret: string } | null {
  const basic = /^Basic\s+(\S+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
  if (basic) {
    const [id, secret] = Buffer.from(basic, 'base64').toString('utf8').split(':', 2).map((part) => decodeURIComponent(part));
    return id && secret !== undefined ? { id, secret } : null;
  }
  const id = form.get('client_id') ?? form.get('client_key');
  const secret = form.get('client_secret');
  return id && secret ? { id, secret } : null;
}

export function sandboxOAuthTokenRoutes(deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const store = () => sandboxStoreOf(deps.storage);
  const oauthError = (c: Context<AppEnv>, status: 400 | 401, error: string, description: string) => c.json({ error, error_description: description }, status);

  routes.post('/token', async (c) => {
    const form = new URLSearchParams((await c.req.text()).slice(0, 16_384));
    const client = clientOf(c, form);
    const platform = client?.id.replace(/^sandbox-/, '') ?? '';
    const network = isNetwork(platform) ? deps.networks.oauth(platform, 'instagram') : null;
    if (!client || !network?.sandbox || client.id !== network.clientId || client.secret !== network.clientSecret) {
      return oauthError(c, 401, 'invalid_client', 'Unknown sandbox client or wrong secret.');
    }
    if (form.get('grant_type') !== 'refresh_token') return oauthError(c, 400, 'unsupported_grant_type', 'Only refresh_token is served here.');
    const refreshToken = form.get('refresh_token') ?? '';
    if (refreshToken === '' || refreshToken.includes('\u0000')) return oauthError(c, 400, 'invalid_request', 'refresh_token is missing.');
    const now = deps.clock();
    const check = await checkSandboxToken(store(), refreshToken, platform, 'refresh', now);
    if (!check.ok) {
      if (refreshToken.startsWith('sbx_') || !deps.networks.sandboxIssuer) return oauthError(c, 400, 'invalid_grant', 'The refresh token is invalid or expired.');
      return passOnToAuthorizationServer(deps, form);
    }
    // Rotation: the token is spent by exactly one request; a second use (a racing or replayed refresh) is refused.
    if (!(await store().useToken(hashSecret(refreshToken), now))) return oauthError(c, 400, 'invalid_grant', 'The refresh token was already used.');
    const accountId = check.accountId ?? 'any';
    const accessToken = await issueSandboxToken(store(), { platform, accountId, kind: 'access', ttlMs: SANDBOX_ACCESS_TOKEN_TTL_S * 1000 }, now);
    const nextRefresh = await issueSandboxToken(store(), { platform, accountId, kind: 'refresh', ttlMs: null }, now);
    return c.json({ access_token: accessToken, token_type: 'Bearer', expires_in: SANDBOX_ACCESS_TOKEN_TTL_S, refresh_token: nextRefresh, scope: 'sandbox', open_id: accountId });
  });

  return routes;
}

/** Tokens of the consent-page flow belong to the sandbox authorization server: it answers for them. */
async function passOnToAuthorizationServer(deps: AppDeps, form: URLSearchParams): Promise<Response> {
  const issuer = deps.networks.sandboxIssuer!;
  const fetchIssuer = createGuardedFetch({ ...deps.config.outbound, allowedOrigins: () => [new URL(issuer).origin] });
  const answer = await fetchIssuer(`${issuer}/token`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: form.toString() });
  return new Response(await answer.text(), { status: answer.status, headers: { 'Content-Type': 'application/json' } });
}
