/**
 * @module
 * The watermark image rules of spec 4.2, checked before youtube is called: the media a watermarks.set upload takes
 * (PNG or JPEG, at most 10 MB; anything else is 307) and a square-ish picture (the channel watermark guidelines ask
 * for a square image; a ratio outside 4:5 to 5:4 is 140, the message naming the image's own ratio).
 */
import { inspectMedia, type MediaDeps } from './inspect-media.js';
import { isMediaFailure, type MediaFailure } from './media-failure.js';

export const WATERMARK_MAX_BYTES = 10 * 1024 * 1024;
export const WATERMARK_RATIO = { min: 4 / 5, max: 5 / 4 };
const TYPES = new Set(['image/jpeg', 'image/png']);

export type WatermarkImage = { ok: true; bytes: Uint8Array; contentType: string; width: number; height: number } | { ok: false; failure: MediaFailure };

export async function checkWatermarkImage(url: string, media: MediaDeps): Promise<WatermarkImage> {
  const inspected = await inspectMedia(url, { ...media, maxImageBytes: WATERMARK_MAX_BYTES });
  if (isMediaFailure(inspected)) return { ok: false, failure: inspected };
  if (inspected.kind !== 'image' || !TYPES.has(inspected.type)) {
    return { ok: false, failure: { code: 307, message: `youtube watermarks are PNG or JPEG images; this media is ${inspected.type}.`, details: { mediaUrl: url, type: inspected.type } } };
  }
  const { width, height } = inspected.info;
  const ratio = width / height;
  if (ratio < WATERMARK_RATIO.min || ratio > WATERMARK_RATIO.max) {
    return {
      ok: false,
      failure: {
        code: 140,
        message: `The watermark image's aspect ratio is ${ratio.toFixed(2)} (${width}×${height}); youtube watermarks are square, ratios from 0.80 to 1.25 are accepted.`,
        details: { mediaUrl: url, width, height, ratio: Number(ratio.toFixed(4)) },
      },
    };
  }
  return { ok: true, bytes: inspected.bytes, contentType: inspected.type, width, height };
}
