/**
 * @module
 * The request-wide rules of a new post (spec 2.1, 2.2, 4.9), checked before any platform is: the body's schema,
 * stock and Unsplash photos resolved into media URLs, the platforms offered here, the plan's features, the
 * schedule and the auto-repost series' start, first-comment media. Each platform's own checks are
 * platform-checks.ts.
 */
import { NETWORKS, NOT_OFFERED_NETWORKS, isNetwork, type Network } from '@social-link-kit/protocol';
import { PUBLISHING_CAPABILITIES } from '@social-link-kit/protocol/publishing/capabilities.js';
import { PostRequest } from '@social-link-kit/protocol/publishing/index.js';
import { ApiError, badRequest } from '../core/errors.js';
import type { Account, Profile } from '../core/db/storage-types.js';
import { requestError } from './request-errors.js';
import { parseScheduleDate } from './rules/schedule-date.js';
import { appendMediaUrls, withStockImages } from './media/stock-images.js';
import { isUnsplashProblem, resolveUnsplash, UNSPLASH_ATTRIBUTION_FIELD, unsplashSettings, type UnsplashChoice, type UnsplashDeps } from './media/unsplash.js';
import type { MediaDeps } from './media/inspect-media.js';

export const DAY_MS = 24 * 60 * 60 * 1000;
/** Scheduling further ahead than this is refused (101): almost certainly a wrong date. */
export const MAX_SCHEDULE_AHEAD_MS = 2 * 365 * DAY_MS;
const PAID_PLANS = new Set(['premium', 'launch', 'business', 'enterprise']);
/** The networks whose first comment takes media, as a refusal names them ("facebook, linkedin and twitter"). */
const FIRST_COMMENT_MEDIA = (() => {
  const networks = (Object.keys(PUBLISHING_CAPABILITIES) as Network[]).filter((network) => PUBLISHING_CAPABILITIES[network].firstComment.media);
  return networks.length > 1 ? `${networks.slice(0, -1).join(', ')} and ${networks.at(-1)}` : networks.join('');
})();

export interface CreateRequestDeps {
  publicUrl(): string;
  media?: MediaDeps;
}

/** A create request that passed the request-wide rules. */
export interface AcceptedRequest {
  /** With stock and Unsplash photos among its media URLs, and the Unsplash credits. */
  request: PostRequest;
  /** The Unsplash photos chosen; their downloads are reported once the post is stored. */
  unsplash: { choice: UnsplashChoice; deps: UnsplashDeps } | null;
  /** Each named network once. */
  platforms: Network[];
  scheduleDate: number | null;
  /** Spec 4.9 rule 6: with a scheduleDate, autoRepost is ignored. */
  autoRepost: PostRequest['autoRepost'];
  /** When an auto-repost series starts (now unless `autoRepost.startDate` is later). */
  seriesStart: number;
}

/** A `scheduleDate`-like field: the exact UTC form, not more than two years ahead (101 otherwise). */
export function acceptedScheduleDate(value: unknown, field: string, now: number): number {
  const date = parseScheduleDate(value);
  if (!date.ok) throw badRequest(date.message.replace('scheduleDate', field), { field }, 'post');
  if (date.epochMs > now + MAX_SCHEDULE_AHEAD_MS) throw badRequest(`"${field}" is more than two years ahead.`, { field }, 'post');
  return date.epochMs;
}

export async function acceptCreateRequest(deps: CreateRequestDeps, account: Account, profile: Profile, body: Record<string, unknown>, now: number): Promise<AcceptedRequest> {
  const parsed = PostRequest.safeParse(body);
  if (!parsed.success) throw requestError(parsed.error, 'post');
  const stock = withStockImages(parsed.data, { baseUrl: deps.media?.stockBaseUrl?.() ?? `${deps.publicUrl()}/sandbox/media/stock`, seed: `${profile.id} ${now}` });
  if (!stock.ok) throw new ApiError(400, 164, stock.message, { action: 'post', details: { field: 'stockImages' } });
  const unsplash = await withUnsplash(deps, stock.request);
  const request = unsplash?.request ?? stock.request;

  const notOffered = request.platforms.filter((platform) => (NOT_OFFERED_NETWORKS as readonly string[]).includes(platform));
  if (notOffered.length > 0) {
    throw new ApiError(400, 163, `${notOffered[0]} is not offered by this service: it is a private beta of the interface. Choose among the offered networks.`, {
      action: 'post',
      details: { notOffered, validValues: NETWORKS },
    });
  }
  const unknown = request.platforms.filter((platform) => !isNetwork(platform));
  if (unknown.length > 0) {
    throw new ApiError(400, 163, `Unknown platform(s): ${unknown.map((p) => JSON.stringify(p.slice(0, 40))).join(', ')}.`, {
      action: 'post',
      details: { invalid: unknown.slice(0, 20).map((p) => p.slice(0, 40)), validValues: NETWORKS },
    });
  }
  const platforms = [...new Set(request.platforms as Network[])];

  if (!profile.isPrimary && account.plan !== 'business' && account.plan !== 'enterprise') {
    throw new ApiError(403, 104, 'Posting for user profiles needs the Business or Enterprise plan.', { action: 'post' });
  }
  const scheduleDate = request.scheduleDate !== undefined ? acceptedScheduleDate(request.scheduleDate, 'scheduleDate', now) : null;
  const autoRepost = scheduleDate === null ? request.autoRepost : undefined;
  if ((request.autoHashtag || autoRepost) && !PAID_PLANS.has(account.plan)) {
    throw new ApiError(403, 104, `${request.autoHashtag ? 'autoHashtag' : 'autoRepost'} needs a paid plan.`, { action: 'post' });
  }
  if (request.shortenLinks && !account.maxPack) throw new ApiError(403, 104, 'shortenLinks needs the max-pack add-on.', { action: 'post' });
  const seriesStart = autoRepost?.startDate !== undefined ? Math.max(now, acceptedScheduleDate(autoRepost.startDate, 'autoRepost.startDate', now)) : now;
  if (request.firstComment?.mediaUrls?.length) {
    const refusing = platforms.filter((platform) => !PUBLISHING_CAPABILITIES[platform].firstComment.media);
    if (refusing.length > 0) throw badRequest(`firstComment.mediaUrls is only for ${FIRST_COMMENT_MEDIA} (not ${refusing.join(', ')}).`, { field: 'firstComment.mediaUrls' }, 'post');
  }
  return { request, unsplash: unsplash && { choice: unsplash.choice, deps: unsplash.deps }, platforms, scheduleDate, autoRepost, seriesStart };
}

/**
 * The `unsplash` field: its photos join the media URLs (after the post's own, like stock images) and their
 * credits are stored with the request. Resolved once, at create time.
 */
async function withUnsplash(deps: CreateRequestDeps, request: PostRequest): Promise<{ request: PostRequest; choice: UnsplashChoice; deps: UnsplashDeps } | null> {
  if (request.unsplash === undefined) return null;
  const unsplashDeps: UnsplashDeps = {
    fetch: deps.media?.fetch ?? (() => Promise.reject(new Error('no media pipeline'))),
    settings: deps.media?.unsplash?.() ?? unsplashSettings(deps.publicUrl(), null, null),
  };
  const choice = await resolveUnsplash(request.unsplash, unsplashDeps);
  if (isUnsplashProblem(choice)) throw new ApiError(choice.status, 164, choice.message, { action: 'post', details: choice.details });
  const mediaUrls = appendMediaUrls(request.mediaUrls, choice.mediaUrls);
  return { request: { ...request, mediaUrls, [UNSPLASH_ATTRIBUTION_FIELD]: choice.attribution } as PostRequest, choice, deps: unsplashDeps };
}
