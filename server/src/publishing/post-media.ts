/**
 * @module
 * A post's media at create time (spec 2.1, 4.9 rules 1, 2, 7): every URL of `mediaUrls` (list or per-platform
 * object), `firstComment.mediaUrls` and youtube's `thumbNail` is checked before the post is accepted. Each URL is
 * inspected once (HEAD, type from the bytes, size, duration) and then judged per network (164, 182, 140); the
 * caller decides what a failure means (scheduled: the whole request; immediate: that platform). A bad thumbnail
 * is only a 307 warning. For a post sent later, a copy of each image is kept so media protection can publish it
 * when the origin fails at publication (media-protection.ts).
 */
import type { Network } from '@social-link-kit/protocol';
import type { PostRequest, PostWarning } from '@social-link-kit/protocol/publishing/index.js';
import type { PublishFailure } from '../networks/publish-adapter.js';
import { checkMediaUrl } from './media/check-media-url.js';
import { inspectMedia, type MediaDeps, type MediaInspection } from './media/inspect-media.js';
import { isMediaFailure, type MediaFailure } from './media/media-failure.js';
import { planMedia } from './media/media-plan.js';
import { keepMediaCopy, type MediaCopy } from './media/media-protection.js';
import { checkYoutubeThumbnail } from './media/youtube-thumbnail.js';
import type { MediaSent } from './rendition.js';

export interface PlatformMediaCheck {
  errors: PublishFailure[];
  warnings: PostWarning[];
  /** The media as the network receives them (rendition.ts): after the conversion the plan calls for. */
  media: MediaSent[];
}


/** The media URLs of a platform: its own list in the object form, else `default`, else the plain list. */
export function mediaUrlsFor(request: Record<string, unknown>, platform: Network): string[] {
  const media = request.mediaUrls;
  if (Array.isArray(media)) return media as string[];
  if (media && typeof media === 'object') {
    const perPlatform = media as Record<string, string[] | undefined>;
    return perPlatform[platform] ?? perPlatform.default ?? [];
  }
  return [];
}

/** Stored copies of a post's images, by origin URL (JSON on the post). */
export type MediaCopies = Record<string, MediaCopy>;

export function asPublishFailure(failure: MediaFailure): PublishFailure {
  return {
    kind: 'failed',
    code: failure.code,
    message: failure.message,
    retryAvailable: failure.retryAvailable === true,
    relink: false,
    ...(failure.details && { details: failure.details }),
  };
}

/** The request's media, checked for each platform; one inspection (and one HEAD) per distinct URL. */
function mediaSent(url: string, inspection: MediaInspection, converted: boolean): MediaSent {
  if (inspection.kind === 'video') return { url, kind: 'video', type: inspection.type, converted: false, size: inspection.size, duration: inspection.seconds };
  const { width, height } = inspection.info;
  return { url, kind: 'image', type: converted ? 'image/jpeg' : inspection.type, converted, size: inspection.bytes.byteLength, width, height };
}

export async function checkPostMedia(request: PostRequest, platforms: readonly Network[], media: MediaDeps): Promise<Map<Network, PlatformMediaCheck>> {
  const inspections = new Map<string, Promise<MediaInspection | MediaFailure>>();
  const inspect = (url: string) => {
    let inspection = inspections.get(url);
    if (!inspection) inspections.set(url, (inspection = inspectMedia(url, media)));
    return inspection;
  };
  const commentMedia = request.firstComment?.mediaUrls ?? [];
  // A first comment's media is only HEAD-checked now: the comment goes out after the post, from the origin.
  const commentChecks = Promise.all(commentMedia.map((url) => checkMediaUrl(url, media)));
  const thumbNail = request.youTubeOptions?.thumbNail;
  const thumbnailCheck = platforms.includes('youtube') && thumbNail !== undefined ? checkYoutubeThumbnail(thumbNail, media) : null;

  // Every distinct URL starts downloading now, in parallel; the loop below only waits for them.
  for (const platform of platforms) for (const url of mediaUrlsFor(request as unknown as Record<string, unknown>, platform)) void inspect(url);
  const longVideo = request.twitterOptions?.longVideo === true;
  const results = new Map<Network, PlatformMediaCheck>();
  for (const platform of platforms) {
    const check: PlatformMediaCheck = { errors: [], warnings: [], media: [] };
    for (const url of mediaUrlsFor(request as unknown as Record<string, unknown>, platform)) {
      const inspection = await inspect(url);
      if (isMediaFailure(inspection)) {
        check.errors.push(asPublishFailure(inspection));
        break;
      }
      const plan = planMedia(inspection, platform, { longVideo });
      if (plan.action === 'refuse') {
        check.errors.push(asPublishFailure(plan.failure));
        break;
      }
      check.media.push(mediaSent(url, inspection, plan.action === 'convert-to-jpeg'));
    }
    results.set(platform, check);
  }
  for (const commentCheck of await commentChecks) {
    if (commentCheck.ok) continue;
    const failure = asPublishFailure({ ...commentCheck, message: `First comment media: ${commentCheck.message}` });
    for (const check of results.values()) check.errors.push(failure);
    break;
  }
  const thumbnail = await thumbnailCheck;
  if (thumbnail && !thumbnail.ok) results.get('youtube')?.warnings.push(thumbnail.warning);
  return results;
}

/**
 * Copies of the images of a post that is sent later (4.9 rule 7, media protection). Best effort: a URL that cannot
 * be copied now was already refused by checkPostMedia, or fails again at publication with its own code.
 */
export async function keepMediaCopies(request: PostRequest, platforms: readonly Network[], media: MediaDeps): Promise<MediaCopies> {
  const urls = new Set(platforms.flatMap((platform) => mediaUrlsFor(request as unknown as Record<string, unknown>, platform)));
  const copies: MediaCopies = {};
  for (const url of urls) {
    const copy = await keepMediaCopy(url, media);
    if (copy && !isMediaFailure(copy)) copies[url] = copy;
  }
  return copies;
}
