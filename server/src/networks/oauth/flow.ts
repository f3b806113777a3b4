/**
 * @module
 * The OAuth 2.0 authorization code flow against one network, with oauth4webapi: the authorization URL (state,
 * PKCE S256 where the network supports it), the one-time code exchange with the network's client authentication,
 * and the identity lookup. Every network call has a timeout.
 */
import * as oauth from 'oauth4webapi';
import type { NetworkIdentity } from './definition.js';
import type { ResolvedOAuthNetwork } from './resolved.js';
import type { GuardedFetch } from '../../core/guarded-fetch.js';

const NETWORK_TIMEOUT_MS = 15_000;

export interface NetworkTokens {
  accessToken: string;
  refreshToken: string | null;
  expiresIn: number | null;
  /** Seconds the refresh token has left, when the network says (tiktok, linkedin: it ends a year after consent). */
  refreshExpiresIn: number | null;
  scope: string | null;
  /**
   * Meta (instagram login, threads): there is no refresh token; the long-lived access token itself is traded for a
   * new one (`ig_refresh_token`, `th_refresh_token`) before it ends.
   */
  renewsWithAccessToken?: boolean;
  /** The user's OAuth 1.0a token and secret, when the answer carries them (X's own-app links, spec 5.6). */
  oauthToken?: string;
  oauthTokenSecret?: string;
}

/** A failure reported by or while talking to the network; `kind` picks the error code. */
export class NetworkFlowError extends Error {
  readonly kind: 'exchange' | 'identity';
  constructor(kind: 'exchange' | 'identity', message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'NetworkFlowError';
    this.kind = kind;
  }
}

function server(network: ResolvedOAuthNetwork): oauth.AuthorizationServer {
  return {
    issuer: network.issuer,
    authorization_endpoint: network.definition.authorizationEndpoint,
    token_endpoint: network.definition.tokenEndpoint,
  };
}

function requestOptions(network: ResolvedOAuthNetwork) {
  return {
    // The sandbox runs on http://127.0.0.1; real networks are always https.
    [oauth.allowInsecureRequests]: network.sandbox,
    [oauth.customFetch]: network.definition.tokenTypeMissing ? addingTokenType(network.fetch) : network.fetch,
    headers: { 'User-Agent': network.userAgent },
    signal: AbortSignal.timeout(NETWORK_TIMEOUT_MS),
  };
}

/** oauth4webapi requires `token_type`; networks that omit it issue bearer tokens, so it is filled in. */
export const addingTokenType = (base: GuardedFetch): GuardedFetch => async (input, init) => {
  const response = await base(input, init);
  if (!response.ok) return response;
  const json = (await response.clone().json().catch(() => null)) as Record<string, unknown> | null;
  if (!json || typeof json !== 'object' || 'token_type' in json) return response;
  return new Response(JSON.stringify({ ...json, token_type: 'bearer' }), {
    status: response.status,
    headers: { 'Content-Type': 'application/json' },
  });
};

/** The refresh token's remaining seconds: tiktok names them `refresh_expires_in`, linkedin `refresh_token_expires_in`. */
export function refreshExpiresIn(answer: Record<string, unknown>): number | null {
  const seconds = answer.refresh_expires_in ?? answer.refresh_token_expires_in;
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0 ? seconds : null;
}

/** Client authentication, with TikTok's `client_key` in place of `client_id`. */
export function clientAuthentication(network: ResolvedOAuthNetwork): oauth.ClientAuth {
  const { clientAuth, clientIdParam } = network.definition;
  if (clientIdParam === 'client_key') {
    return (_as, client, body) => {
      body.set('client_key', client.client_id);
      body.set('client_secret', network.clientSecret);
    };
  }
  return clientAuth === 'client_secret_basic' ? oauth.ClientSecretBasic(network.clientSecret) : oauth.ClientSecretPost(network.clientSecret);
}

export async function authorizationUrl(
  network: ResolvedOAuthNetwork,
  params: { state: string; codeVerifier: string; redirectUri: string },
): Promise<string> {
  const { definition } = network;
  const url = new URL(definition.authorizationEndpoint);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set(definition.clientIdParam ?? 'client_id', network.clientId);
  url.searchParams.set('redirect_uri', params.redirectUri);
  url.searchParams.set('scope', definition.scopes.join(definition.scopeSeparator ?? ' '));
  url.searchParams.set('state', params.state);
  if (definition.pkce) {
    url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(params.codeVerifier));
    url.searchParams.set('code_challenge_method', 'S256');
  }
  for (const [name, value] of Object.entries(definition.extraParams ?? {})) url.searchParams.set(name, value);
  return url.href;
}

/** Exchanges the code once. Never retried: a token request that was sent may have consumed the code. */
export async function exchangeCode(
  network: ResolvedOAuthNetwork,
  callbackUrl: URL,
  params: { state: string; codeVerifier: string; redirectUri: string },
): Promise<NetworkTokens> {
  const as = server(network);
  const client: oauth.Client = { client_id: network.clientId };
  const auth = clientAuthentication(network);
  try {
    const callbackParams = oauth.validateAuthResponse(as, client, callbackUrl, params.state);
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      auth,
      callbackParams,
      params.redirectUri,
      network.definition.pkce ? params.codeVerifier : oauth.nopkce,
      requestOptions(network),
    );
    const result = await oauth.processAuthorizationCodeResponse(as, client, response);
    return {
      accessToken: result.access_token,
      refreshToken: result.refresh_token ?? null,
      expiresIn: typeof result.expires_in === 'number' ? result.expires_in : null,
      refreshExpiresIn: refreshExpiresIn(result),
      scope: result.scope ?? null,
      ...(typeof result.oauth_token === 'string' && typeof result.oauth_token_secret === 'string' && { oauthToken: result.oauth_token, oauthTokenSecret: result.oauth_token_secret }),
    };
  } catch (error) {
    const detail = error instanceof oauth.ResponseBodyError ? `${error.error}${error.error_description ? `: ${error.error_description}` : ''}` : String(error);
    throw new NetworkFlowError('exchange', `The network refused the authorization code (${detail}).`, { cause: error });
  }
}

export async function fetchIdentity(network: ResolvedOAuthNetwork, accessToken: string): Promise<NetworkIdentity> {
  try {
    const response = await network.fetch(network.definition.identityEndpoint, {
      headers: { Authorization: `Bearer ${accessToken}`, Accept: 'application/json', 'User-Agent': network.userAgent },
      signal: AbortSignal.timeout(NETWORK_TIMEOUT_MS),
    });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return network.definition.identity(await response.json());
  } catch (error) {
    throw new NetworkFlowError('identity', `The connected account could not be read (${String(error)}).`, { cause: error });
  }
}

/** The tokens a link keeps: the code's, or (Meta) the long-lived ones traded for them (definition `longLivedToken`). */
export async function tokensToKeep(network: ResolvedOAuthNetwork, tokens: NetworkTokens, identity: NetworkIdentity): Promise<NetworkTokens> {
  return network.definition.longLivedToken ? network.definition.longLivedToken(network, tokens, identity) : tokens;
}
