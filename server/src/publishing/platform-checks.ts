/**
 * @module
 * Each platform of a new post, checked on its own (spec 3, 4.3, 4.9): its text as the network gets it, a linked
 * account of a kind that may post, the adapter's own rules, youtube's category, threads' geo option, the network
 * options, the first comment, duplicate content (24 h either side), then the media. A failing platform keeps its
 * failures; the caller decides whether the post goes on without it. Also what each passing platform would receive
 * (the renditions a preview hashes).
 */
import type { Network } from '@social-link-kit/protocol';
import { PUBLISHING_CAPABILITIES } from '@social-link-kit/protocol/publishing/capabilities.js';
import type { PostRequest } from '@social-link-kit/protocol/publishing/index.js';
import type { PlatformPost, PublishAdapter, PublishFailure } from '../networks/publish-adapter.js';
import type { Account, Profile, SocialAccount } from '../core/db/storage-types.js';
import type { Storage } from '../storage/storage.js';
import { networkOptionsFor } from './publish-context.js';
import { mediaUrlsFor } from './post-media.js';
import type { PostStore, StoredPlatform } from './post-store.js';
import { DUPLICATE_WINDOW_MS } from './duplicate-index.js';
import { addHashtags } from './rules/auto-hashtag.js';
import { applyLineBreaks } from './rules/line-breaks.js';
import { normalizeForDuplicates } from './rules/near-duplicate.js';
import { renderRichText } from './rules/rich-text.js';
import { isWarning, validateNetworkOptions } from './rules/network-options.js';
import { personalAccountRefusal } from './rules/personal-accounts.js';
import { youtubeCategoryRefusal, type CategoryLookup } from './rules/youtube-category.js';
import type { MediaDeps } from './media/inspect-media.js';
import { checkPostMedia } from './post-media.js';
import { renditionOf, type MediaSent, type Renditions } from './rendition.js';

export interface PlatformCheckDeps {
  store: PostStore;
  storage: Storage;
  adapters: Record<Network, PublishAdapter>;
  /** youtube's categories of a region for the profile's channel (spec 4.3); without it categories are not checked. */
  youtubeCategories?: CategoryLookup;
  /** Whether the profile's threads account may use `allowCountries`; without it the option is refused. */
  geoEligible?: (profileId: string) => Promise<boolean | PublishFailure | null>;
}

export interface ResolvedPlatform {
  platform: Network;
  text: string;
  errors: PublishFailure[];
  /** Non-fatal issues of the network options (518, 521), reported on the platform's postIds entry. */
  warnings: { feature: string; code: number }[];
  /** The media as the network would receive them, once checked (rendition.ts). */
  media?: MediaSent[];
}

function fail(code: number, message: string, details?: Record<string, unknown>): PublishFailure {
  return { kind: 'failed', code, message, retryAvailable: false, relink: false, ...(details && { details }) };
}

/** `social`: the profile's account linked on `platform` (null when none), read with the suspension check (accounts/suspension.ts). */
export async function resolvePlatform(
  deps: PlatformCheckDeps,
  account: Account,
  profile: Profile,
  request: PostRequest,
  platform: Network,
  at: number,
  social: SocialAccount | null,
): Promise<ResolvedPlatform> {
  const capabilities = PUBLISHING_CAPABILITIES[platform];
  let raw = typeof request.post === 'string' ? request.post : (request.post[platform] ?? request.post.default ?? '');
  if (request.autoHashtag) {
    const settings = typeof request.autoHashtag === 'object' ? request.autoHashtag : {};
    raw = addHashtags(raw, settings);
  }
  const text = applyLineBreaks(renderRichText(raw, platform), platform);
  const errors: PublishFailure[] = [];
  if (!social) {
    errors.push(fail(163, `No ${platform} account is linked to this profile.`));
    return { platform, text, errors, warnings: [] };
  }
  const personal = personalAccountRefusal(platform, social.accountType);
  if (personal) return { platform, text, errors: [personal], warnings: [] };
  const post: PlatformPost = {
    platform,
    text,
    mediaUrls: mediaUrlsFor(request as unknown as Record<string, unknown>, platform),
    isVideo: request.isVideo === true,
    // The adapters check their options at create time too (reddit's title and subreddit, twitter's longPost).
    options: networkOptionsFor(request as unknown as Record<string, unknown>, platform),
    postId: '',
    attemptKey: '',
  };
  const account$ = { platform, accountId: social.networkUserId, username: social.username, displayName: social.displayName, sandbox: true, tokens: async () => ({}) };
  errors.push(...deps.adapters[platform].validate(post, account$));
  if (platform === 'youtube' && errors.length === 0) {
    const refused = await youtubeCategoryRefusal(deps.youtubeCategories, profile.id, request.youTubeOptions);
    if (refused) errors.push(refused);
  }
  const warnings: ResolvedPlatform['warnings'] = [];
  let geoRestrictionsEligible = false;
  if (platform === 'threads' && request.threadsOptions?.allowCountries !== undefined && deps.geoEligible) {
    const eligible = await deps.geoEligible(profile.id);
    if (typeof eligible === 'object' && eligible !== null) errors.push(eligible);
    else geoRestrictionsEligible = eligible === true;
  }
  for (const issue of validateNetworkOptions(platform, request, { geoRestrictionsEligible })) {
    if (isWarning(issue)) warnings.push({ feature: issue.field ?? 'options', code: issue.code });
    else errors.push(fail(issue.code, issue.message, { ...issue.details, ...(issue.field && { field: issue.field }) }));
  }
  if (request.firstComment && !capabilities.firstComment.supported) errors.push(fail(101, `${platform} does not take a first comment.`));
  if (errors.length === 0 && capabilities.duplicateCheck !== 'none') {
    const key = normalizeForDuplicates(text);
    const duplicate = await deps.store.duplicates.isDuplicate({
      profileId: profile.id,
      accountId: account.id,
      platform,
      at,
      windowMs: DUPLICATE_WINDOW_MS,
      duplicateKey: key,
      acrossAccount: capabilities.duplicateCheck === 'account',
    });
    if (duplicate) errors.push(fail(137, `Duplicate or similar content was posted on ${platform} within 24 hours of this post.`));
  }
  return { platform, text, errors, warnings };
}

export function hasMedia(request: PostRequest): boolean {
  const media = request.mediaUrls;
  const given = Array.isArray(media) ? media.length > 0 : media !== undefined && Object.values(media).some((urls) => (urls?.length ?? 0) > 0);
  return given || (request.firstComment?.mediaUrls?.length ?? 0) > 0 || request.youTubeOptions?.thumbNail !== undefined;
}

/** Media checks of the platforms that passed everything else; their failures and warnings join the platform's. */
export async function checkMedia(request: PostRequest, resolved: ResolvedPlatform[], media: MediaDeps): Promise<void> {
  const passing = resolved.filter((entry) => entry.errors.length === 0);
  const checks = await checkPostMedia(request, passing.map((entry) => entry.platform), media);
  for (const entry of passing) {
    const check = checks.get(entry.platform);
    if (!check) continue;
    entry.errors.push(...check.errors);
    entry.warnings.push(...check.warnings);
    entry.media = check.media;
  }
}

/** What each network that passed the checks would receive. */
export function renditionsOf(request: PostRequest, resolved: ResolvedPlatform[], publicUrl: string): Renditions {
  const shorten = request.shortenLinks ? { publicUrl } : null;
  const renditions: Renditions = {};
  for (const entry of resolved) {
    if (entry.errors.length > 0) continue;
    const options = networkOptionsFor(request as unknown as Record<string, unknown>, entry.platform);
    renditions[entry.platform] = renditionOf({ platform: entry.platform, text: entry.text, options }, entry.media ?? [], shorten);
  }
  return renditions;
}

/** A platform's first failure as its row stores it. */
export function toError(failure: PublishFailure): NonNullable<StoredPlatform['error']> {
  return { code: failure.code, message: failure.message, ...(failure.details && { details: failure.details }), ...(failure.retryAvailable && { retryAvailable: true }) };
}
