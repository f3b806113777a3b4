/**
 * @module
 * Meta's token lifetimes, as the three Meta sandboxes serve them. A Meta login's code gives an hour-long token and no
 * refresh token (sandbox-users.ts); then, at Meta's paths:
 * - `GET /sandbox/oauth/token?grant_type=fb_exchange_token&client_id&client_secret&fb_exchange_token` (facebook's
 *   `/oauth/access_token`, served by the sandbox authorization server) → a 60-day user token;
 * - `GET /sandbox/facebook/{version}/{page-id}?fields=access_token` (facebook-api.ts) → the page's token: it does not
 *   expire when asked with a long-lived user token, and ends with the user token otherwise;
 * - `GET /sandbox/{instagram|threads}/access_token?grant_type=ig_exchange_token|th_exchange_token&client_secret&access_token`
 *   → a 60-day token; `GET …/refresh_access_token?grant_type=ig_refresh_token|th_refresh_token&access_token` → a new
 *   60-day token for one that has not ended.
 * Answers are Meta's `{access_token, token_type: "bearer", expires_in}`; refusals are Graph errors (code 190 for a
 * token that is invalid or ended, 101 for a wrong client, 100 for a wrong parameter).
 */
import type { SandboxEnv, SandboxHost } from '@social-link-kit/server/sandbox-host.js';
import { sandboxClientOf } from '@social-link-kit/server/sandbox-kit.js';
import type { Context, Hono } from 'hono';
import { GraphSandboxError } from './graph-sandbox.js';
import { checkSandboxToken, issueSandboxToken, sandboxStoreOf, type BearerCheck } from './sandbox-tokens.js';

/** A long-lived Meta token's life: 60 days. */
export const META_LONG_LIVED_TTL_S = 60 * 86_400;
/** User tokens living less than this are short-lived: a page token got with one ends with it. */
const SHORT_LIVED_MAX_MS = 86_400_000;

export const META_NETWORKS: ReadonlySet<string> = new Set(['facebook', 'instagram', 'threads']);

type OkCheck = Extract<BearerCheck, { ok: true }>;

async function validToken(deps: SandboxHost, token: string | undefined, platform: string): Promise<OkCheck> {
  const check = await checkSandboxToken(sandboxStoreOf(deps.storage), token ?? null, platform, 'access', deps.clock());
  if (!check.ok) throw new GraphSandboxError(400, 190, check.reason === 'expired' ? 'Error validating access token: Session has expired.' : 'Invalid OAuth access token - Cannot parse access token');
  return check;
}

async function longLivedAnswer(deps: SandboxHost, c: Context<SandboxEnv>, platform: string, check: OkCheck) {
  const now = deps.clock();
  const token = await issueSandboxToken(sandboxStoreOf(deps.storage), { platform, accountId: check.accountId, handle: check.handle, kind: 'access', ttlMs: META_LONG_LIVED_TTL_S * 1000 }, now);
  return c.json({ access_token: token, token_type: 'bearer', expires_in: META_LONG_LIVED_TTL_S }, 200, { 'Cache-Control': 'no-store' });
}

/** facebook's `fb_exchange_token` (the Meta app's client: facebook's, or instagram's through a page). */
export async function answerFacebookExchange(deps: SandboxHost, c: Context<SandboxEnv>) {
  const clientId = c.req.query('client_id') ?? '';
  const platform = clientId.replace(/^sandbox-/, '');
  if (!(platform === 'facebook' || platform === 'instagram') || clientId !== sandboxClientOf(platform).clientId || c.req.query('client_secret') !== sandboxClientOf(platform).clientSecret) {
    throw new GraphSandboxError(400, 101, 'Error validating application. Invalid application ID or secret.');
  }
  return longLivedAnswer(deps, c, platform, await validToken(deps, c.req.query('fb_exchange_token'), platform));
}

/** A page's token, asked for with a user token of that page. */
export async function pageTokenAnswer(deps: SandboxHost, c: Context<SandboxEnv>, user: OkCheck) {
  const now = deps.clock();
  const ttlMs = user.expiresAt === null || user.expiresAt - now >= SHORT_LIVED_MAX_MS ? null : user.expiresAt - now;
  const token = await issueSandboxToken(sandboxStoreOf(deps.storage), { platform: 'facebook', accountId: user.accountId, handle: user.handle, kind: 'access', ttlMs }, now);
  return c.json({ id: user.accountId, access_token: token });
}

/** instagram login's and threads' `/access_token` and `/refresh_access_token`, on the network's sandbox root (its routes answer Graph errors). */
export function serveMetaLoginTokens(routes: Hono<SandboxEnv>, deps: SandboxHost, platform: 'instagram' | 'threads'): void {
  const prefix = platform === 'instagram' ? 'ig' : 'th';
  routes.get('/access_token', async (c) => {
    if (c.req.query('grant_type') !== `${prefix}_exchange_token`) throw new GraphSandboxError(400, 100, `Invalid parameter: grant_type must be ${prefix}_exchange_token.`);
    if (c.req.query('client_secret') !== sandboxClientOf(platform).clientSecret) throw new GraphSandboxError(400, 101, 'Error validating application. Invalid application secret.');
    return longLivedAnswer(deps, c, platform, await validToken(deps, c.req.query('access_token'), platform));
  });
  routes.get('/refresh_access_token', async (c) => {
    if (c.req.query('grant_type') !== `${prefix}_refresh_token`) throw new GraphSandboxError(400, 100, `Invalid parameter: grant_type must be ${prefix}_refresh_token.`);
    return longLivedAnswer(deps, c, platform, await validToken(deps, c.req.query('access_token'), platform));
  });
}
