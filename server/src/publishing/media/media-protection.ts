/**
 * @module
 * Media protection (spec 2.1 `contentIssues`, 4.9 rule 7). When a post is accepted for later, `keepMediaCopy` stores a
 * copy of each image. At publication the origin is asked again (a scheduled post needs its media then); if the
 * origin now fails (164, 451) but a copy exists, the copy is published from its signed address and the result
 * carries `contentIssues: {originMediaHostFailed: true, details}`. Videos are not copied (they can be gigabytes):
 * a failing video origin fails the post.
 */
import type { Network } from '@social-link-kit/protocol';
import { ConversionUnavailableError } from './image-conversion-pool.js';
import { inspectMedia, probeUnavailable, type MediaDeps, type MediaInspection } from './inspect-media.js';
import { isMediaFailure, mediaFailure, type MediaFailure } from './media-failure.js';
import { planMedia } from './media-plan.js';
import { convertToJpeg, prepareMediaForPlatform, stageJpeg, type PreparedMedia, type PrepareOptions } from './prepare-media.js';
import type { MediaType } from '../../core/sniff-media-type.js';

/** A stored copy of an image, kept with the post (JSON). */
export interface MediaCopy {
  name: string;
  contentType: string;
}

export interface ContentIssues {
  originMediaHostFailed: true;
  details: string[];
}

export type ProtectedMedia = PreparedMedia & { contentIssues?: ContentIssues };

const STORED_AS_IS = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);
const ORIGIN_FAILURES = new Set([164, 451]);

/** A copy of the image at `url` (HEIC/AVIF kept as JPEG); null for a video, which is not copied. */
export async function keepMediaCopy(url: string, deps: MediaDeps): Promise<MediaCopy | null | MediaFailure> {
  const media = await inspectMedia(url, deps);
  if (isMediaFailure(media)) return media;
  if (media.kind === 'video') return null;
  let bytes = media.bytes;
  let contentType: string = media.type;
  if (!STORED_AS_IS.has(media.type)) {
    const jpeg = await convertToJpeg(media.bytes, media.type, media.check.url, deps);
    if (isMediaFailure(jpeg)) return jpeg;
    bytes = jpeg;
    contentType = 'image/jpeg';
  }
  try {
    return await deps.store.put(bytes, contentType);
  } catch (error) {
    return mediaFailure(452, 'The media copy could not be stored; try again.', { reason: (error as NodeJS.ErrnoException).code ?? 'store error' }, true);
  }
}

/** prepareMediaForPlatform, falling back on the stored copy when the origin fails at publication. */
export async function prepareProtectedMedia(
  url: string,
  platform: Network,
  deps: MediaDeps,
  copy: MediaCopy | null,
  options: PrepareOptions = {},
): Promise<ProtectedMedia | MediaFailure> {
  const fresh = await prepareMediaForPlatform(url, platform, deps, options);
  if (!isMediaFailure(fresh) || !copy || !ORIGIN_FAILURES.has(fresh.code)) return fresh;
  const stored = await deps.store.read(copy.name);
  if (!stored) return fresh;
  const bytes = new Uint8Array(stored.bytes);
  let info;
  try {
    info = await deps.converter.inspect(bytes, stored.contentType);
  } catch (error) {
    return error instanceof ConversionUnavailableError ? probeUnavailable(error) : fresh;
  }
  const signed = deps.store.signedUrl(copy.name, deps.now());
  const media: MediaInspection = {
    kind: 'image',
    check: { ok: true, url: signed, rewritten: false, status: 200, contentType: stored.contentType, contentLength: bytes.length, looksLikeVideo: false },
    type: stored.contentType as MediaType,
    bytes,
    info,
  };
  const plan = planMedia(media, platform, options);
  if (plan.action === 'refuse') return plan.failure;
  const contentIssues: ContentIssues = { originMediaHostFailed: true, details: [`${url}: ${fresh.message} The stored copy was published instead.`] };
  if (plan.action === 'as-is') return { url: signed, contentType: stored.contentType, bytes, converted: false, stored: true, contentIssues };
  const jpeg = await convertToJpeg(bytes, stored.contentType, url, deps);
  if (isMediaFailure(jpeg)) return jpeg;
  const staged = await stageJpeg(jpeg, deps);
  return isMediaFailure(staged) ? staged : { ...staged, contentIssues };
}
