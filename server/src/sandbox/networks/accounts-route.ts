/**
 * @module
 * `POST /api/sandbox/accounts {platform}` (API key, optional Profile-Key): links a sandbox account of `platform`
 * to the profile without a browser, so integrators' own test suites and the demo can publish at once. Only for a
 * network that runs on the sandbox on this service (400 otherwise). The account gets tokens the sandbox network
 * accepts (bluesky: a PDS session; OAuth networks: an access and a refresh token; telegram: a sandbox channel),
 * sealed like a browser link's, and the link goes through the same storage call as one (`linkAccount`, inside a
 * one-minute server-side link session whose token nobody receives), so the `social` webhook fires the same way.
 */
import { Hono } from 'hono';
import { randomBytes, randomInt } from 'node:crypto';
import { ErrorCode, NETWORK_LABELS, isNetwork, type Network } from '../../../../src/protocol/index.js';
import type { AppDeps, AppEnv } from '../../context.js';
import { tokenAad } from '../../core/crypto/token-cipher.js';
import { ApiError, badRequest } from '../../core/errors.js';
import { readJsonObject } from '../../core/http/read-json.js';
import { hashSecret, newId, newSecret } from '../../core/tokens.js';
import { createSandboxBlueskySession, sandboxDidFor } from './bluesky-pds.js';
import { issueSandboxToken, sandboxStoreOf } from './sandbox-tokens.js';
import { linkAccount } from '../../linking/service.js';

const ACTION = 'sandbox accounts';
/** The bot name the network registry uses when telegram runs on the sandbox. */
const SANDBOX_TELEGRAM_BOT = 'SocialLinkSandboxBot';

export function runsOnSandbox(deps: AppDeps, platform: Network): boolean {
  if (!deps.networks.sandboxIssuer) return false;
  if (platform === 'bluesky') return deps.networks.blueskyPdsUrl === `${deps.config.publicUrl}/sandbox`;
  if (platform === 'telegram') return deps.networks.telegramBotUsername === SANDBOX_TELEGRAM_BOT;
  return deps.networks.oauth(platform, 'instagram')?.sandbox === true;
}

interface NewSandboxAccount {
  networkUserId: string;
  displayName: string;
  username: string;
  tokens: Record<string, unknown> | null;
}

export function sandboxAccountRoutes(deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();

  async function createNetworkAccount(platform: Network, now: number): Promise<NewSandboxAccount> {
    const store = sandboxStoreOf(deps.storage);
    const suffix = randomBytes(4).toString('hex');
    if (platform === 'bluesky') {
      const handle = `sandbox-${suffix}.bsky.social`;
      const session = await createSandboxBlueskySession(store, sandboxDidFor(handle), handle, now);
      return {
        networkUserId: session.did,
        displayName: handle,
        username: handle,
        tokens: { accessJwt: session.accessJwt, refreshJwt: session.refreshJwt, pdsUrl: `${deps.config.publicUrl}/sandbox`, obtainedAt: now },
      };
    }
    if (platform === 'telegram') {
      // A channel id as Telegram writes them (-100…); telegram links store no token, the bot's token is the service's.
      return { networkUserId: `-100${randomInt(1_000_000_000, 9_999_999_999)}`, displayName: 'Sandbox Telegram channel', username: `sandbox_${suffix}`, tokens: null };
    }
    const accountId = `sandbox-${platform}-${suffix}`;
    const accessToken = await issueSandboxToken(store, { platform, accountId, kind: 'access', ttlMs: null }, now);
    const refreshToken = await issueSandboxToken(store, { platform, accountId, kind: 'refresh', ttlMs: null }, now);
    return {
      networkUserId: accountId,
      displayName: `Sandbox ${NETWORK_LABELS[platform]} account`,
      username: `sandbox_${platform}_${suffix}`,
      tokens: { accessToken, refreshToken, expiresIn: null, scope: 'sandbox', obtainedAt: now },
    };
  }

  routes.post('/', async (c) => {
    const body = await readJsonObject(c, deps.config.maxBodyBytes, ACTION);
    const platform = body.platform;
    if (!isNetwork(platform)) throw new ApiError(400, ErrorCode.platformInvalid, '`platform` must be one of the networks.', { action: ACTION, details: { platform } });
    const unknown = Object.keys(body).filter((key) => key !== 'platform');
    if (unknown.length > 0) throw badRequest(`Unknown field(s): ${unknown.join(', ')}.`, { fields: unknown }, ACTION);
    if (!runsOnSandbox(deps, platform)) {
      throw badRequest(`${platform} runs against the real network on this service; sandbox accounts exist only for sandbox networks.`, { platform }, ACTION);
    }
    const account = c.get('account');
    const profile = c.get('profile');
    const now = deps.clock();
    const created = await createNetworkAccount(platform, now);
    const sessionId = newId('ls_');
    await deps.storage.linking.createLinkSession({
      id: sessionId,
      tokenHash: hashSecret(newSecret()),
      accountId: account.id,
      profileId: profile.id,
      origin: null,
      redirect: null,
      domain: account.domains[0] ?? 'sandbox',
      allowedSocial: [platform],
      instagramLinkMethod: null,
      createdAt: now,
      expiresAt: now + 60_000,
    });
    const tokensEncrypted = created.tokens ? deps.tokenCipher.encrypt(JSON.stringify(created.tokens), tokenAad(profile.id, platform, created.networkUserId)) : null;
    const result = await linkAccount(
      deps.storage,
      sessionId,
      { profileId: profile.id, platform, networkUserId: created.networkUserId, displayName: created.displayName, username: created.username, tokensEncrypted, linkedAt: now },
      now,
    );
    if (!result.stored) throw new ApiError(503, 500, 'The sandbox account could not be stored; try again.', { action: ACTION, retryAvailable: true });
    const feedUrl = `${deps.config.publicUrl}/sandbox/feed?profile=${encodeURIComponent(profile.refId)}`;
    return c.json({ status: 'success', platform, refId: profile.refId, displayName: created.displayName, username: created.username, sandbox: true, feedUrl });
  });

  return routes;
}
