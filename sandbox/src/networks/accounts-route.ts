/**
 * @module
 * `POST /api/sandbox/accounts {platform}` (API key, optional Profile-Key): links a sandbox account of `platform`
 * to the profile without a browser, so integrators' own test suites and the demo can publish at once. Only for a
 * network that runs on the sandbox on this service (400 otherwise). The account gets tokens the sandbox network
 * accepts (bluesky: a PDS session; OAuth networks: an access and a refresh token; telegram: a sandbox channel and
 * a bot token for it),
 * sealed like a browser link's, and the link goes through the same storage call as one (`linkAccount`, inside a
 * one-minute server-side link session whose token nobody receives), so the `social` webhook fires the same way.
 */
import type { SandboxEnv, SandboxHost } from '@social-link-kit/server/sandbox-host.js';
import { ApiError, badRequest, hashSecret, linkAccount, newId, newSecret, readJsonObject, tokenAad, tokenFacts } from '@social-link-kit/server/sandbox-kit.js';
import { Hono } from 'hono';
import { randomInt } from 'node:crypto';
import { ErrorCode, isNetwork, type Network } from '@social-link-kit/protocol';
import { createSandboxBlueskySession } from './bluesky-pds.js';
import { sandboxStoreOf } from './sandbox-tokens.js';
import { sandboxFeedUrl } from './feed-page.js';
import { issueSandboxTelegramTokens } from './telegram-bot-api.js';
import { INSTAGRAM_ACCOUNT_TYPES, createSandboxUserWithNewHandle, issueUserTokens } from './sandbox-users.js';

const ACTION = 'sandbox accounts';

interface NewSandboxAccount {
  networkUserId: string;
  displayName: string;
  username: string;
  tokens: Record<string, unknown> | null;
}

export function sandboxAccountRoutes(deps: SandboxHost): Hono<SandboxEnv> {
  const routes = new Hono<SandboxEnv>();

  /** A new sandbox user, made and issued tokens exactly as a consent screen or a bluesky sign-in makes one. */
  async function createNetworkAccount(platform: Network, details: Record<string, unknown>, now: number): Promise<NewSandboxAccount> {
    const store = sandboxStoreOf(deps.storage);
    if (platform === 'telegram') {
      // A channel id as Telegram writes them (-100…), and a sandbox bot token that opens only that channel.
      const channel = `-100${randomInt(1_000_000_000, 9_999_999_999)}`;
      return { networkUserId: channel, displayName: 'Sandbox Telegram channel', username: `sandbox_${channel.slice(-8)}`, tokens: await issueSandboxTelegramTokens(store, channel, now) };
    }
    // bluesky: an app password nobody receives; the account signs in with the session below.
    const user = await createSandboxUserWithNewHandle(store, platform, { details, ...(platform === 'bluesky' && { appPassword: newSecret() }) }, now);
    if (platform === 'bluesky') {
      const session = await createSandboxBlueskySession(store, user.accountId, user.handle, now);
      return {
        networkUserId: session.did,
        displayName: user.displayName,
        username: user.handle,
        tokens: { accessJwt: session.accessJwt, refreshJwt: session.refreshJwt, pdsUrl: `${deps.config.publicUrl}/sandbox`, obtainedAt: now },
      };
    }
    // The tokens of a code exchange, without the access token's expiry (scripts publish at any time).
    // The scopes the service asks for, as a consent screen would grant them.
    const definition = deps.networks.oauth(platform, 'instagram')?.definition;
    const issued = await issueUserTokens(store, user, definition ? definition.scopes.join(definition.scopeSeparator ?? ' ') : 'sandbox', now, null);
    const refreshSeconds = issued.refresh_expires_in ?? issued.refresh_token_expires_in;
    const tokens = {
      accessToken: issued.access_token,
      refreshToken: issued.refresh_token,
      expiresIn: null,
      scope: issued.scope,
      obtainedAt: now,
      // tiktok's and linkedin's refresh tokens end a year after consent, as a code exchange stores it.
      ...(refreshSeconds !== undefined && { refreshExpiresAt: now + refreshSeconds * 1000 }),
      ...(issued.oauth_token && { oauthToken: issued.oauth_token, oauthTokenSecret: issued.oauth_token_secret }),
    };
    return { networkUserId: user.accountId, displayName: user.displayName, username: user.handle, tokens };
  }

  routes.post('/', async (c) => {
    const body = await readJsonObject(c, deps.config.maxBodyBytes, ACTION);
    const platform = body.platform;
    if (!isNetwork(platform)) throw new ApiError(400, ErrorCode.platformInvalid, '`platform` must be one of the networks.', { action: ACTION, details: { platform } });
    const unknown = Object.keys(body).filter((key) => key !== 'platform' && key !== 'accountType');
    if (unknown.length > 0) throw badRequest(`Unknown field(s): ${unknown.join(', ')}.`, { fields: unknown }, ACTION);
    if (!deps.networks.runsOnSandbox(platform)) {
      throw badRequest(`${platform} runs against the real network on this service; sandbox accounts exist only for sandbox networks.`, { platform }, ACTION);
    }
    // instagram only: the kind of account the sandbox reports, so a PERSONAL one (which cannot publish) can be tried.
    const accountType = body.accountType;
    if (accountType !== undefined && (platform !== 'instagram' || !(INSTAGRAM_ACCOUNT_TYPES as readonly unknown[]).includes(accountType))) {
      throw badRequest(`\`accountType\` is for instagram only: one of ${INSTAGRAM_ACCOUNT_TYPES.join(', ')}.`, { field: 'accountType' }, ACTION);
    }
    const account = c.get('account');
    const profile = c.get('profile');
    const now = deps.clock();
    const created = await createNetworkAccount(platform, platform === 'instagram' ? { accountType: accountType ?? 'BUSINESS' } : {}, now);
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
      {
        profileId: profile.id,
        platform,
        networkUserId: created.networkUserId,
        displayName: created.displayName,
        username: created.username,
        tokensEncrypted,
        linkedAt: now,
        accountType: platform === 'instagram' ? ((accountType as string | undefined) ?? 'BUSINESS') : null,
        sandbox: true,
      },
      now,
      tokenFacts(created.tokens ?? null),
    );
    if (!result.stored) throw new ApiError(503, 500, 'The sandbox account could not be stored; try again.', { action: ACTION, retryAvailable: true });
    const feedUrl = await sandboxFeedUrl(deps.storage, deps.config.publicUrl, profile.refId, now);
    return c.json({ status: 'success', platform, refId: profile.refId, displayName: created.displayName, username: created.username, sandbox: true, feedUrl });
  });

  return routes;
}

/** `GET /api/sandbox/feed-url` (API key, optional Profile-Key): a fresh address of the profile's sandbox feed. */
export function sandboxFeedUrlRoutes(deps: SandboxHost): Hono<SandboxEnv> {
  return new Hono<SandboxEnv>().get('/', async (c) =>
    c.json({ status: 'success', url: await sandboxFeedUrl(deps.storage, deps.config.publicUrl, c.get('profile').refId, deps.clock()) }),
  );
}
