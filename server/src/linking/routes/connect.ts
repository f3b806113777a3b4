/**
 * @module
 * Connecting and disconnecting networks from the hosted page, authenticated by the link token:
 * - `POST   /api/link/connect/:platform`   starts an OAuth attempt → `{startUrl}` for the popup to open; networks
 *   that connect otherwise: credentials (bluesky's app password) are checked by the network's link half and the
 *   account stored here; a bot (telegram) gets a code the user sends it (telegram-code.ts)
 * - `DELETE /api/link/accounts/:platform`  disconnects the profile's account on that network
 * The popup then runs top-level through `/connect/start` and `/connect/callback/:platform` (oauth-callback.ts).
 */
import { Hono } from 'hono';
import { ErrorCode, isNetwork, DisconnectResponse, type Network, StartConnectResponse } from '@social-link-kit/protocol';
import type { AppDeps } from '../../app-deps.js';
import type { AppEnv } from '../../context.js';
import { ApiError } from '../../core/errors.js';
import { NETWORKS } from '../../networks/index.js';
import type { NetworkLink } from '../../networks/link.js';
import type { LinkSessionRecord } from '../../core/db/storage-types.js';
import { assertConnectStartAllowed } from '../../core/limits/enforce-limit.js';
import { readJsonObject } from '../../core/http/read-json.js';
import { assertNetworkOffered, commitLinkedAccount, linkInvalidError, oauthNetworkFor } from '../service.js';
import { unlinkAccount } from '../unlink.js';
import { createTelegramCode } from '../telegram-code.js';
import { assertNotSuspended } from '../../accounts/suspension.js';
import { assertEmbeddingAllowed } from '../embed-mode.js';
import { EMBED_MODE_HEADER } from '@social-link-kit/protocol/constants.js';
import { hashSecret, newSecret } from '../../core/tokens.js';
import { describe } from '../../core/openapi/describe.js';
import { BotCodeResponse, CredentialsConnectRequest, CredentialsConnectResponse } from '@social-link-kit/protocol';

/** An attempt (state + PKCE verifier) lives at most 10 minutes, and never past the session. */
const ATTEMPT_TTL_MS = 10 * 60_000;

export function connectRoutes(deps: Pick<AppDeps, 'config' | 'storage' | 'clock' | 'networks' | 'limiter' | 'tokenCipher'>): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();

  routes.post('/connect/:platform', describe({ summary: 'Start (oauth), complete (credentials) or get a bot code (telegram) for a network', tag: 'Hosted page API', auth: 'linkToken', request: CredentialsConnectRequest, response: StartConnectResponse, name: 'StartConnectResponse', alternatives: { CredentialsConnectResponse, BotCodeResponse }, errors: [101, 104, 105, 163, 502, 503, 510, 512] }), async (c) => {
    const session = c.get('linkSession');
    const platform = allowedPlatform(session, c.req.param('platform'));
    await assertEmbeddingAllowed(deps, session, c.req.header(EMBED_MODE_HEADER));
    await assertNotSuspended(deps.storage.driver, session.profileId, 'link session');
    await assertConnectStartAllowed(deps, session.id);
    const link: NetworkLink = NETWORKS[platform].link;
    if (link.method === 'credentials') {
      const body = await readJsonObject(c, deps.config.maxBodyBytes, 'link session');
      const env = { fetch: deps.networks.fetch, loginUrl: deps.networks.loginUrl(platform), sandbox: deps.networks.runsOnSandbox(platform), now: deps.clock() };
      const identity = await link.verify(body, env);
      const result = await commitLinkedAccount(deps, session, identity);
      if (!result.stored && result.reason === 'suspended') await assertNotSuspended(deps.storage.driver, session.profileId, 'link session');
      if (!result.stored) throw linkInvalidError('This link has expired or is no longer valid.');
      const answer: CredentialsConnectResponse = { status: 'success', platform, displayName: identity.displayName ?? '' };
      return c.json(answer);
    }
    if (link.method === 'bot') {
      const bot = deps.networks.telegramBotUsername;
      if (!bot) throw new ApiError(503, ErrorCode.networkUnavailable, 'Telegram cannot be connected on this service right now.', { action: 'link session' });
      return c.json(await createTelegramCode(deps, session, bot));
    }
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

  routes.delete('/accounts/:platform', describe({ summary: 'Disconnect a network from the hosted page', tag: 'Hosted page API', auth: 'linkToken', response: DisconnectResponse, name: 'DisconnectResponse', errors: [104, 163, 502] }), async (c) => {
    const session = c.get('linkSession');
    const platform = allowedPlatform(session, c.req.param('platform'));
    await assertEmbeddingAllowed(deps, session, c.req.header(EMBED_MODE_HEADER));
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
