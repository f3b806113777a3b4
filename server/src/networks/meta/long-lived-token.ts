/**
 * @module
 * Meta's long-lived tokens. A Meta login's code gives a token of an hour or two and no refresh token; kept as it is,
 * an account linked in the morning could not publish at noon. So, right after the identity is read:
 * - facebook: the user token is traded for a 60-day one (`GET {token endpoint}?grant_type=fb_exchange_token`), and
 *   with it the page's own token is read (`GET /{page-id}?fields=access_token`): a page token got with a long-lived
 *   user token does not expire;
 * - instagram through a Facebook page: the same 60-day user token; Meta cannot renew it without the user, so the
 *   account-health sweep warns (`account.expiring`) before it ends;
 * - instagram login and threads: `GET /access_token?grant_type=ig_exchange_token|th_exchange_token` gives a 60-day
 *   token, renewed with itself before it ends (`GET /refresh_access_token?grant_type=ig_refresh_token|th_refresh_token`,
 *   once it is a day old, as Meta requires).
 * The paths are Meta's, at the network's API root (the version-less base); on the sandbox only the origin differs.
 * Meta documents these calls with the tokens in the query: the URLs are never logged and never put in an error.
 */
import type { NetworkIdentity } from '../oauth/definition.js';
import { NetworkFlowError, type NetworkTokens } from '../oauth/flow.js';
import type { ResolvedOAuthNetwork } from '../oauth/resolved.js';
import type { RefreshContext, RefreshOutcome } from '../publish-adapter.js';
import { graphErrorOf } from './graph.js';

const NETWORK_TIMEOUT_MS = 15_000;

/** The API base without its version segment (`https://graph.threads.net/v1.0` → `https://graph.threads.net`). */
function apiRoot(network: ResolvedOAuthNetwork): string {
  if (!network.apiBase) throw new NetworkFlowError('exchange', `${network.platform} has no API base to trade the token at.`);
  return network.apiBase.replace(/\/v\d+(\.\d+)?\/?$/, '');
}

type MetaAnswer = { ok: true; body: Record<string, unknown> } | { ok: false; status: number; code: number | null; message: string };

/** One GET to a Meta token path; the URL (it holds tokens) stays out of every message. */
async function metaGet(network: ResolvedOAuthNetwork, url: URL, bearer?: string): Promise<MetaAnswer> {
  let response: Response;
  try {
    response = await network.fetch(url, {
      headers: { Accept: 'application/json', 'User-Agent': network.userAgent, ...(bearer && { Authorization: `Bearer ${bearer}` }) },
      signal: AbortSignal.timeout(NETWORK_TIMEOUT_MS),
    });
  } catch (error) {
    return { ok: false, status: 0, code: null, message: `no answer (${error instanceof Error ? error.name : 'error'})` };
  }
  const body = (await response.json().catch(() => null)) as Record<string, unknown> | null;
  if (response.ok && body && typeof body.access_token === 'string' && body.access_token !== '') return { ok: true, body };
  const error = graphErrorOf(body);
  return { ok: false, status: response.status, code: error?.code ?? null, message: error?.message ?? `HTTP ${response.status}` };
}

const expiresInOf = (body: Record<string, unknown>) => (typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : null);

function tokenUrl(base: string, params: Record<string, string>): URL {
  const url = new URL(base);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return url;
}

async function traded(network: ResolvedOAuthNetwork, url: URL, what: string, bearer?: string): Promise<Record<string, unknown>> {
  const answer = await metaGet(network, url, bearer);
  if (!answer.ok) throw new NetworkFlowError('exchange', `${network.platform} did not give ${what} (${answer.message.slice(0, 200)}).`);
  return answer.body;
}

/** Facebook login (facebook, instagram through a page): the short-lived user token for a 60-day one. */
export async function longLivedUserToken(network: ResolvedOAuthNetwork, tokens: NetworkTokens): Promise<NetworkTokens> {
  const url = tokenUrl(network.definition.tokenEndpoint, {
    grant_type: 'fb_exchange_token',
    client_id: network.clientId,
    client_secret: network.clientSecret,
    fb_exchange_token: tokens.accessToken,
  });
  const body = await traded(network, url, 'a long-lived token');
  return { ...tokens, accessToken: body.access_token as string, expiresIn: expiresInOf(body), refreshToken: null };
}

/** facebook: the 60-day user token, then the page's token, which does not expire. */
export async function facebookPageToken(network: ResolvedOAuthNetwork, tokens: NetworkTokens, identity: NetworkIdentity): Promise<NetworkTokens> {
  const user = await longLivedUserToken(network, tokens);
  const url = tokenUrl(`${network.apiBase ?? ''}/${encodeURIComponent(identity.id)}`, { fields: 'access_token' });
  const page = await traded(network, url, "the page's token", user.accessToken);
  return { ...user, accessToken: page.access_token as string, expiresIn: null };
}

/** instagram login and threads: the hour-long token for a 60-day one that renews itself. */
export function longLivedLoginToken(grant: 'ig_exchange_token' | 'th_exchange_token') {
  return async (network: ResolvedOAuthNetwork, tokens: NetworkTokens): Promise<NetworkTokens> => {
    const url = tokenUrl(`${apiRoot(network)}/access_token`, { grant_type: grant, client_secret: network.clientSecret, access_token: tokens.accessToken });
    const body = await traded(network, url, 'a long-lived token');
    return { ...tokens, accessToken: body.access_token as string, expiresIn: expiresInOf(body), refreshToken: null, renewsWithAccessToken: true };
  };
}

/**
 * The adapter's `refresh` for instagram login and threads: the long-lived token (`ctx.refreshToken` carries it, see
 * `renewalCredentialOf`) for a new 60-day one. Graph code 190 (expired or invalidated) is `rejected`: only linking
 * again helps; anything else may be tried again later.
 */
export function renewLongLivedToken(grant: 'ig_refresh_token' | 'th_refresh_token') {
  return async (ctx: RefreshContext): Promise<RefreshOutcome> => {
    let url: URL;
    try {
      url = tokenUrl(`${apiRoot(ctx.network)}/refresh_access_token`, { grant_type: grant, access_token: ctx.refreshToken });
    } catch (error) {
      return { kind: 'unavailable', message: error instanceof Error ? error.message : String(error) };
    }
    const answer = await metaGet({ ...ctx.network, fetch: ctx.fetch as ResolvedOAuthNetwork['fetch'] }, url);
    if (answer.ok) return { kind: 'refreshed', tokens: { accessToken: answer.body.access_token as string, refreshToken: null, expiresIn: expiresInOf(answer.body), refreshExpiresIn: null, scope: null } };
    if (answer.code === 190) return { kind: 'rejected', message: `${grant} refused: ${answer.message.slice(0, 200)}` };
    return { kind: 'unavailable', message: `${ctx.network.platform} could not renew the token now (${answer.message.slice(0, 200)})` };
  };
}
