/**
 * @module
 * youtube `thumbNail` (spec 2.1, 7 code 307): a PNG or JPEG of at most 2 MB. A thumbnail that fails the check is a
 * non-fatal warning `{feature: 'thumbnail', code: 307}`: the video still publishes, without it.
 */
import { isMediaFailure } from './media-failure.js';
import { inspectMedia, type MediaDeps } from './inspect-media.js';

export const THUMBNAIL_MAX_BYTES = 2 * 1024 * 1024;

export type ThumbnailCheck =
  | { ok: true; url: string; contentType: 'image/jpeg' | 'image/png'; bytes: Uint8Array }
  | { ok: false; warning: { feature: 'thumbnail'; code: 307 }; message: string };

export async function checkYoutubeThumbnail(url: unknown, deps: MediaDeps): Promise<ThumbnailCheck> {
  const media = await inspectMedia(url, { ...deps, maxImageBytes: THUMBNAIL_MAX_BYTES });
  if (isMediaFailure(media)) return warn(`The thumbnail was not used: ${media.message}`);
  if (media.kind !== 'image' || (media.type !== 'image/jpeg' && media.type !== 'image/png')) {
    return warn(`The thumbnail was not used: youtube takes a PNG or JPEG thumbnail, this is ${media.type}.`);
  }
  return { ok: true, url: media.check.url, contentType: media.type, bytes: media.bytes };
}

function warn(message: string): ThumbnailCheck {
  return { ok: false, warning: { feature: 'thumbnail', code: 307 }, message };
}
