/**
 * @module
 * Connecting and disconnecting networks from the hosted page, authenticated by the link token:
 * - `POST   /api/link/connect/:platform`   starts an OAuth attempt → `{startUrl}` for the popup to open; networks
 *   that connect otherwise (bluesky's app password, telegram's bot code) answer from networks/<id>/link.ts
 * - `DELETE /api/link/accounts/:platform`  disconnects the profile's account on that network
 * The popup then runs top-level through `/connect/start` and `/connect/callback/:platform` (oauth-callback.ts).
 */
import { Hono } from 'hono';
import { ErrorCode, isNetwork, DisconnectResponse, type Network, StartConnectResponse } from '@social-link-kit/protocol';
import type { AppDeps, AppEnv } from '../../context.js';
import { ApiError } from '../../core/errors.js';
import { NETWORK_LINKS } from '../../networks/index.js';
import type { NetworkLink } from '../../networks/link.js';
import type { LinkSessionRecord } from '../../core/db/storage-types.js';
import { assertConnectStartAllowed } from '../../core/limits/enforce-limit.js';
import { assertNetworkOffered, oauthNetworkFor, unlinkAccount } from '../service.js';
import { hashSecret, newSecret } from '../../core/tokens.js';
import { describe } from '../../core/openapi/describe.js';
import { BotCodeResponse, CredentialsConnectRequest, CredentialsConnectResponse } from '@social-link-kit/protocol';

/** An attempt (state + PKCE verifier) lives at most 10 minutes, and never past the session. */
const ATTEMPT_TTL_MS = 10 * 60_000;

export function connectRoutes(deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();

  routes.post('/connect/:platform', describe({ summary: 'Start (oauth), complete (credentials) or get a bot code (telegram) for a network', tag: 'Hosted page API', auth: 'linkToken', request: CredentialsConnectRequest, response: StartConnectResponse, name: 'StartConnectResponse', alternatives: { CredentialsConnectResponse, BotCodeResponse }, errors: [163, 502, 503, 510, 512] }), async (c) => {
    const session = c.get('linkSession');
    const platform = allowedPlatform(session, c.req.param('platform'));
    await assertConnectStartAllowed(deps, session.id);
    const link: NetworkLink = NETWORK_LINKS[platform];
    // Networks without OAuth (credentials, bot) answer from their own folder.
    if (link.method !== 'oauth') return link.connect(deps, c, session);
    const network = await oauthNetworkFor(deps, session, platform);
    if (!network) {
      throw new ApiError(503, ErrorCode.networkUnavailable, `${platform} cannot be connected on this service right now.`, { action: 'link session' });
    }
    const now = deps.clock();
    const ticket = newSecret();
    await deps.storage.linking.createOAuthAttempt({
      ticketHash: hashSecret(ticket),
      stateHash: null,
      sessionId: session.id,
      platform,
      codeVerifier: newSecret(),
      bindingHash: null,
      createdAt: now,
      expiresAt: Math.min(now + ATTEMPT_TTL_MS, session.expiresAt),
      startedAt: null,
      usedAt: null,
      outcome: null,
    });
    const answer: StartConnectResponse = { status: 'success', platform, sandbox: network.sandbox, startUrl: `${deps.config.publicUrl}/connect/start?ticket=${ticket}` };
    return c.json(answer);
  });

  routes.delete('/accounts/:platform', describe({ summary: 'Disconnect a network from the hosted page', tag: 'Hosted page API', auth: 'linkToken', response: DisconnectResponse, name: 'DisconnectResponse', errors: [163, 502] }), async (c) => {
    const session = c.get('linkSession');
    const platform = allowedPlatform(session, c.req.param('platform'));
    const removed = await unlinkAccount(deps.storage, session.profileId, platform, deps.clock());
    const answer: DisconnectResponse = { status: 'success', platform, removed };
    return c.json(answer);
  });

  return routes;
}

function allowedPlatform(session: LinkSessionRecord, value: string): Network {
  if (!isNetwork(value)) {
    throw new ApiError(400, ErrorCode.platformInvalid, `Unknown network "${value.slice(0, 32)}".`, { action: 'link session' });
  }
  assertNetworkOffered(session, value);
  return value;
}
