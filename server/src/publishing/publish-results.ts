/**
 * @module
 * What an attempt's results look like in the post's answers and rows: a platform's error entry, its `postIds`
 * entry, a network failure as stored; and the one renewal of a refused token an attempt may make.
 */
import type { Network } from '@social-link-kit/protocol';
import type { PostIdEntry, PostPlatformError } from '@social-link-kit/protocol/publishing/index.js';
import type { PrepareWaiting, PublishContext, PublishFailure } from '../networks/publish-adapter.js';
import { publicFirstComment } from './first-comment-reconcile.js';
import type { StoredPlatform } from './post-store.js';
import type { AnsweredPlatform } from './post-reads.js';
import { preparedMediaOf } from './prepare-post-media.js';

export function platformError(platform: Network, error: NonNullable<StoredPlatform['error']>): PostPlatformError {
  return { action: 'post', status: 'error', platform, ...error };
}

/** A platform row's `postIds` entry (the columns post-reads.ts reads for an answer are enough). */
export function postIdEntry(row: AnsweredPlatform): PostIdEntry | null {
  if (row.status === 'success' && row.networkPostId) {
    const contentIssues = preparedMediaOf(row.prepared)?.contentIssues;
    return {
      status: 'success',
      platform: row.platform,
      id: row.networkPostId,
      postUrl: row.postUrl ?? '',
      ...(row.warnings && { warnings: row.warnings }),
      ...(contentIssues && { contentIssues }),
      ...(row.firstComment && { firstComment: publicFirstComment(row.firstComment) }),
    };
  }
  if (row.status === 'pending') {
    return { status: 'pending', platform: row.platform, id: 'pending', postUrl: String(row.pendingState?.url ?? '') };
  }
  return null;
}

export function failureToError(failure: PublishFailure): NonNullable<StoredPlatform['error']> {
  return {
    code: failure.code,
    message: failure.message,
    ...(failure.details && { details: failure.details }),
    retryAvailable: failure.retryAvailable,
    ...(failure.relink && { relink: true }),
  };
}

export function isFailure<T extends object>(value: T | PublishFailure): value is PublishFailure {
  const failure = value as Partial<PublishFailure>;
  return failure.kind === 'failed' && typeof failure.code === 'number' && typeof failure.retryAvailable === 'boolean';
}

export function isWaiting(value: object): value is PrepareWaiting {
  return (value as Partial<PrepareWaiting>).kind === 'waiting';
}

/**
 * Runs a step; when the network refused the account's token and the tokens could be renewed, runs it once more.
 * `token-refused` retries only a plain 401 (the irreversible commit); `any` retries every relink failure (prepare
 * is idempotent).
 */
export async function onceMoreWithNewTokens<T extends object>(ctx: PublishContext, step: () => Promise<T | PublishFailure>, which: 'any' | 'token-refused'): Promise<T | PublishFailure> {
  const result = await step();
  if (!isFailure(result) || !result.relink || (which === 'token-refused' && result.code !== 401)) return result;
  const renewal = ctx.account.refreshAfterRejection ? await ctx.account.refreshAfterRejection() : false;
  if (renewal !== true) return renewal === false ? result : renewal;
  ctx.log('token renewed after a rejection; trying once more');
  const again = await step();
  return isFailure(again) && again.relink ? renewedTokenRefused(ctx.account.platform, again) : again;
}

/**
 * The network refused the token it had just issued on renewal: a new link would get a token from the same place,
 * refused the same way (the service's app or API address does not match the network's), so relinking is not advised.
 */
export function renewedTokenRefused(platform: Network, failure: PublishFailure): PublishFailure {
  return {
    ...failure,
    relink: false,
    retryAvailable: false,
    message: `${platform} refused the account's access token again right after the service renewed it, so linking the account again will not help: the network does not accept the tokens it issues to this service (check the service's ${platform} app and API address).`,
    details: { ...failure.details, renewedTokenRefused: true },
  };
}
