/**
 * @module
 * The context one platform of a post is published in: the network runtime's account context
 * (analytics/network-context.ts: the linked account, tokens opened on demand, where it was linked) plus what only
 * publishing needs: the refusals that end the attempt (no account, a personal instagram account, no API here, a
 * renewal refused), saving rotated tokens, one renewal after a rejected token, the rate budgets, saved progress and
 * the crash points of test builds.
 */
import type { Network } from '@social-link-kit/protocol';
import { accountSandbox, linkedAccountOf } from '../analytics/network-context.js';
import { sealTokens } from '../core/crypto/token-cipher.js';
import { databaseRateBudget } from '../core/rate-budget.js';
import { networkModule } from '../networks/index.js';
import type { LinkedAccountRef, PlatformPost, PublishContext, PublishFailure } from '../networks/publish-adapter.js';
import type { EngineDeps } from './engine-deps.js';
import type { StoredPlatform, StoredPost } from './post-store.js';
import { preparedMediaOf } from './prepare-post-media.js';
import { mediaUrlsFor } from './post-media.js';
import { personalAccountRefusal } from './rules/personal-accounts.js';

/** The request's option object for a network (`twitterOptions`, `linkedInOptions`, `tikTokOptions`…). */
export function networkOptionsFor(request: Record<string, unknown>, platform: Network): Record<string, unknown> {
  const options = request[networkModule(platform).optionsKey];
  return options && typeof options === 'object' && !Array.isArray(options) ? (options as Record<string, unknown>) : {};
}

export function attemptKey(postId: string, platform: Network): string {
  return `${postId}:${platform}`;
}


/** `step`: the engine's crash hook (test builds). A failure when the attempt cannot call the network at all. */
export async function publishContextFor(deps: EngineDeps, post: StoredPost, row: StoredPlatform, step: NonNullable<PublishContext['step']>): Promise<PublishContext | PublishFailure> {
  const social = await deps.storage.linking.findSocialAccount(post.profileId, row.platform);
  if (!social) return { kind: 'failed', code: 163, message: `No ${row.platform} account is linked to this profile.`, retryAvailable: false, relink: true };
  // Linked again meanwhile as a personal instagram account (4.9 rule 10): it cannot publish.
  const personal = personalAccountRefusal(row.platform, social.accountType);
  if (personal) return personal;
  const sandbox = accountSandbox(deps, social);
  const baseUrl = deps.publishBaseUrl(row.platform, sandbox);
  if (!baseUrl) return { kind: 'failed', code: 503, message: `Publishing to ${row.platform} is not available on this service.`, retryAvailable: false, relink: false };
  const refresher = deps.refresher;
  // Tokens that expire within the margin are renewed first; an account whose renewal was refused needs a relink.
  const stale = refresher ? await refresher.ensureFresh(social, true) : null;
  if (stale) return stale;
  const account: LinkedAccountRef = {
    ...linkedAccountOf(deps, social, sandbox),
    async saveTokens(tokens) {
      // Rotated tokens (bluesky refreshSession): sealed like a link's; never an empty refresh token.
      if (Object.keys(tokens).length === 0) return;
      const sealed = sealTokens(deps.tokenCipher, social, tokens);
      await deps.store.db.run('UPDATE social_accounts SET tokens_encrypted = ? WHERE profile_id = ? AND platform = ? AND network_user_id = ?', [
        sealed,
        social.profileId,
        social.platform,
        social.networkUserId,
      ]);
      social.tokensEncrypted = sealed;
    },
    ...(refresher && { refreshAfterRejection: () => refresher.afterRejection(social) }),
  };
  const request = post.request;
  const platformPost: PlatformPost = {
    platform: row.platform,
    text: row.text,
    // Once the media step ran, the converted/stored addresses it chose (the same ones after a crash).
    mediaUrls: preparedMediaOf(row.prepared)?.urls ?? mediaUrlsFor(request, row.platform),
    isVideo: request.isVideo === true,
    options: networkOptionsFor(request, row.platform),
    postId: post.id,
    attemptKey: attemptKey(post.id, row.platform),
  };
  return {
    post: platformPost,
    account,
    baseUrl,
    fetch: deps.fetch,
    now: deps.clock,
    log: (event, fields) => deps.log(JSON.stringify({ event, postId: post.id, platform: row.platform, ...fields })),
    rateBudget: databaseRateBudget(deps.store.db, deps.clock),
    saveProgress: (state) => deps.store.savePrepared(post.id, row.platform, state),
    step,
    appCredentials: async () => networkModule(row.platform).appCredentials?.ofRequest(deps.tokenCipher, post.profileId, request) ?? null,
  };
}
