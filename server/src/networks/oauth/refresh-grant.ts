/**
 * @module
 * The OAuth 2.0 refresh grant (RFC 6749 section 6) as the networks whose access tokens expire speak it: google
 * (youtube, gmb), tiktok (`client_key`), linkedin, reddit, pinterest. The token endpoint and client authentication are
 * the link flow's (flow.ts); the sandbox serves a rotating endpoint of its own (`refreshEndpoint`). `invalid_grant`
 * (revoked, expired or already spent refresh token) is `rejected`: only linking again helps; anything else
 * (no answer, 5xx, a throttle) is `unavailable` and may be tried again later.
 */
import * as oauth from 'oauth4webapi';
import type { PublishFailure, RefreshContext, RefreshOutcome } from '../publish-adapter.js';
import { addingTokenType, clientAuthentication, refreshExpiresIn } from './flow.js';

const NETWORK_TIMEOUT_MS = 15_000;

type GrantOutcome = Exclude<RefreshOutcome, { kind: 'unavailable' }> | { kind: 'unavailable'; message: string; answer: { status: number; body: Record<string, unknown> } };

export async function oauth2RefreshGrant(ctx: RefreshContext): Promise<GrantOutcome> {
  const { network } = ctx;
  const tokenEndpoint = network.definition.refreshEndpoint ?? network.definition.tokenEndpoint;
  const as: oauth.AuthorizationServer = { issuer: network.issuer, token_endpoint: tokenEndpoint };
  const client: oauth.Client = { client_id: network.clientId };
  const guarded = ctx.fetch as typeof fetch;
  try {
    const response = await oauth.refreshTokenGrantRequest(as, client, clientAuthentication(network), ctx.refreshToken, {
      [oauth.allowInsecureRequests]: network.sandbox,
      [oauth.customFetch]: network.definition.tokenTypeMissing ? addingTokenType(guarded) : guarded,
      headers: { 'User-Agent': network.userAgent },
      signal: AbortSignal.timeout(NETWORK_TIMEOUT_MS),
    });
    const result = await oauth.processRefreshTokenResponse(as, client, response);
    return {
      kind: 'refreshed',
      tokens: {
        accessToken: result.access_token,
        // Never an empty refresh token: a network that sends none keeps the old one valid.
        refreshToken: typeof result.refresh_token === 'string' && result.refresh_token !== '' ? result.refresh_token : null,
        expiresIn: typeof result.expires_in === 'number' ? result.expires_in : null,
        refreshExpiresIn: refreshExpiresIn(result),
        scope: result.scope ?? null,
      },
    };
  } catch (error) {
    if (error instanceof oauth.ResponseBodyError && error.error === 'invalid_grant') {
      return { kind: 'rejected', message: `invalid_grant${error.error_description ? `: ${error.error_description.slice(0, 200)}` : ''}` };
    }
    const detail = error instanceof oauth.ResponseBodyError ? error.error : error instanceof Error ? error.message : String(error);
    return { kind: 'unavailable', message: detail.slice(0, 200), answer: error instanceof oauth.ResponseBodyError ? { status: error.status, body: error.cause } : { status: 0, body: {} } };
  }
}

/**
 * The refresh grant for a network that names its own refresh failures (gmb 519, linkedin 524): anything but
 * `invalid_grant` is reported as `classify` reads the token endpoint's answer (status 0: no answer).
 */
export function oauth2RefreshGrantClassifiedBy(classify: (status: number, body: Record<string, unknown>) => PublishFailure) {
  return async (ctx: RefreshContext): Promise<RefreshOutcome> => {
    const outcome = await oauth2RefreshGrant(ctx);
    if (outcome.kind !== 'unavailable') return outcome;
    return { kind: 'unavailable', message: outcome.message, failure: classify(outcome.answer.status, outcome.answer.body) };
  };
}
