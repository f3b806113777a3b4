/**
 * @module
 * The rules of linking that every connect flow shares, written once: whether a session can still link, which
 * network definition a session's OAuth connection uses, whether the link offers a network, and committing a linked
 * account (tokens sealed, then stored with the completion in one transaction that re-checks the session).
 */
import { ErrorCode, type InstagramLinkMethod, type Network } from '@social-link-kit/protocol';
import type { AppDeps } from '../app-deps.js';
import { sealTokens } from '../core/crypto/token-cipher.js';
import type { LinkAccountResult, LinkSessionRecord, SocialAccount } from '../core/db/storage-types.js';
import { ApiError } from '../core/errors.js';
import type { LinkedIdentity } from '../networks/link.js';
import type { ResolvedOAuthNetwork } from '../networks/registry.js';
import type { Storage } from '../storage/storage.js';
import { findSuspension } from '../accounts/suspension-store.js';
import { newSocialEvent } from '../webhooks/social-event.js';
import { HealthRecorder, type TokenFacts } from '../account-health/health-recorder.js';
import { tokenFacts } from '../account-health/token-facts.js';

/** The answer for a link that is unknown, expired or revoked: the same for all three, so it tells a guesser nothing. */
export function linkInvalidError(message = 'This link has expired or is no longer valid. Ask for a new link.'): ApiError {
  return new ApiError(401, ErrorCode.linkInvalid, message, { action: 'link session' });
}

/** A session links accounts until it expires or is revoked. */
export function isSessionUsable(session: LinkSessionRecord | null, now: number): session is LinkSessionRecord {
  return session !== null && session.revokedAt === null && session.expiresAt > now;
}

/** The session by id when it can still link; null when unknown, expired or revoked. */
export async function findUsableSession(deps: Pick<AppDeps, 'storage'>, sessionId: string, now: number): Promise<LinkSessionRecord | null> {
  const session = await deps.storage.linking.findLinkSessionById(sessionId);
  return isSessionUsable(session, now) ? session : null;
}

/** Throws 403 when the link's `allowedSocial` leaves `platform` out. */
export function assertNetworkOffered(session: LinkSessionRecord, platform: Network): void {
  if (session.allowedSocial && !session.allowedSocial.includes(platform)) {
    throw new ApiError(403, ErrorCode.networkNotAllowed, `${platform} is not offered by this link.`, { action: 'link session' });
  }
}

/** Which instagram login a session uses: its own `instagramLinkMethod`, else the account-wide setting. */
export async function instagramLinkMethodOf(deps: Pick<AppDeps, 'storage'>, session: LinkSessionRecord): Promise<InstagramLinkMethod> {
  if (session.instagramLinkMethod) return session.instagramLinkMethod;
  return (await deps.storage.accounts.findAccount(session.accountId))?.instagramLinkMethod ?? 'instagram';
}

/**
 * The OAuth network a session's connection to `platform` runs against (real or sandbox), or null when it cannot be
 * connected here. One function, so the start of a connection and its callback always pick the same definition.
 */
export async function oauthNetworkFor(
  deps: Pick<AppDeps, 'storage' | 'networks'>,
  session: LinkSessionRecord,
  platform: Network,
): Promise<ResolvedOAuthNetwork | null> {
  return deps.networks.oauth(platform, await instagramLinkMethodOf(deps, session));
}

/**
 * Seals the tokens and stores the account with the session's completion (and its `link` event). The session is
 * re-checked inside the transaction at the current time, so a revoke or expiry during the network calls wins.
 */
export async function commitLinkedAccount(
  deps: Pick<AppDeps, 'storage' | 'tokenCipher' | 'clock'>,
  session: LinkSessionRecord,
  identity: LinkedIdentity,
): Promise<LinkAccountResult> {
  const { platform, networkUserId, tokens } = identity;
  const tokensEncrypted = tokens ? sealTokens(deps.tokenCipher, { profileId: session.profileId, platform, networkUserId }, tokens) : null;
  return linkAccount(
    deps.storage,
    session.id,
    {
      profileId: session.profileId,
      platform,
      networkUserId,
      displayName: identity.displayName,
      username: identity.username,
      tokensEncrypted,
      linkedAt: identity.linkedAt,
      accountType: identity.accountType ?? null,
      sandbox: identity.sandbox,
    },
    deps.clock(),
    tokenFacts(tokens),
  );
}

/**
 * Stores (or replaces) the profile's account on a network and records the completion on the session, in one
 * transaction that first re-checks that the session is neither expired nor revoked. When the profile has a `social`
 * webhook, the same transaction adds a `link` event to the outbox. The account's health starts over (a relink of an
 * account that had a problem reports `account.recovered`); `token` is what the new tokens say of their expiry and scopes.
 */
export async function linkAccount(storage: Storage, sessionId: string, account: SocialAccount, now: number, token: TokenFacts | null = null): Promise<LinkAccountResult> {
  return storage.driver.transaction(async (tx): Promise<LinkAccountResult> => {
    const state = await storage.linking.lockSessionForLink(tx, sessionId, now);
    if (state !== 'usable') return { stored: false, reason: state };
    // A suspended profile links nothing, even through a connection started before it was suspended.
    if (await findSuspension(tx, account.profileId)) return { stored: false, reason: 'suspended' };
    await storage.linking.storeLinkedAccount(tx, sessionId, account, now);
    await storage.webhooks.enqueue(tx, account.profileId, 'social', now, (profile) =>
      newSocialEvent({ event: 'link', platform: account.platform, ...profile, displayName: account.displayName, at: now }),
    );
    await new HealthRecorder(storage).recordLinked(tx, account, token, now);
    return { stored: true, account };
  });
}
