/**
 * @module
 * Everything the service learns about one media URL, once, whatever the networks: the HEAD check, the first bytes
 * (one range read), the real type sniffed from them, then for an image the whole file and its pixel size (in the
 * conversion pool), for a video its duration and size from the header. media-plan.ts then judges it per network.
 */
import type { GuardedFetch } from '../../core/guarded-fetch.js';
import type { UnsplashSettings } from './unsplash.js';
import { checkMediaUrl, unreachable, type MediaCheckOk } from './check-media-url.js';
import { ConversionUnavailableError, type ImageConverter, type ImageInfo } from './image-conversion-pool.js';
import { isMediaFailure, mediaFailure, type MediaFailure } from './media-failure.js';
import type { MediaStore } from './media-store.js';
import { probeVideo } from './probe-video.js';
import type { RecentInspections } from './recent-inspections.js';
import { createRangeReader, RangeReadError, type RangeRead } from './range-reader.js';
import { sniffMediaType, type SniffedType } from '../../core/sniff-media-type.js';

/** What the media functions need; built once by media-pipeline.ts. */
export interface MediaDeps {
  fetch: GuardedFetch;
  converter: ImageConverter;
  store: MediaStore;
  /** The service clock (epoch ms): signed URLs expire by it. */
  now(): number;
  /** Largest image downloaded for conversion or inspection (default 25 MB). */
  maxImageBytes?: number;
  /** Largest video whose header is read; a host ignoring Range sends the whole file (default 100 MB). */
  maxVideoBytes?: number;
  /** Inspections of the last minute (recent-inspections.ts): an immediate post downloads each file once. */
  recent?: RecentInspections;
  /** The stock-image provider's base URL (`<base>/<id>.jpg`); default: the sandbox media host's stock folder. */
  stockBaseUrl?: () => string;
  /** Where the `unsplash` field's photos come from, and the access key (unsplash.ts). */
  unsplash?: () => UnsplashSettings;
}

export type MediaInspection =
  | { kind: 'image'; check: MediaCheckOk; type: SniffedType['type']; bytes: Uint8Array; info: ImageInfo }
  | { kind: 'video'; check: MediaCheckOk; type: SniffedType['type']; seconds: number; size: number | null };

const FIRST_READ = 64 * 1024;

export async function inspectMedia(rawUrl: unknown, deps: MediaDeps): Promise<MediaInspection | MediaFailure> {
  // The size limit is part of the key: a thumbnail (2 MB) must not reuse an inspection made under the 25 MB limit.
  const key = typeof rawUrl === 'string' ? `${deps.maxImageBytes ?? ''} ${rawUrl}` : null;
  const remembered = key === null ? undefined : deps.recent?.get(key, deps.now());
  if (remembered) return remembered;
  const inspection = await inspectOnce(rawUrl, deps);
  if (key !== null && !isMediaFailure(inspection)) deps.recent?.set(key, deps.now(), inspection);
  return inspection;
}

async function inspectOnce(rawUrl: unknown, deps: MediaDeps): Promise<MediaInspection | MediaFailure> {
  const check = await checkMediaUrl(rawUrl, deps);
  if (!check.ok) return { code: check.code, message: check.message, ...(check.details && { details: check.details }) };
  const maxImageBytes = deps.maxImageBytes ?? 25 * 1024 * 1024;
  const reader = createRangeReader(check.url, deps.fetch, Math.max(maxImageBytes, deps.maxVideoBytes ?? 100 * 1024 * 1024));
  // After a good HEAD, a failing download of something that may need converting is 451 (spec 7); of a video, 164.
  const downloadCode = check.looksLikeVideo ? 164 : 451;
  let first: RangeRead;
  try {
    first = await reader.read(0, FIRST_READ);
  } catch (error) {
    return downloadFailure(check.url, error, downloadCode);
  }
  const sniffed = sniffMediaType(first.bytes);
  if (!sniffed) {
    return mediaFailure(164, 'The media is not a readable image or video (JPEG, PNG, GIF, WebP, HEIC, HEIF, AVIF, MP4 or MOV).', {
      mediaUrl: check.url,
      contentType: check.contentType,
    });
  }
  if (sniffed.kind === 'video') {
    const probe = await probeVideo(reader, first).catch((error: unknown) => ({ ok: false as const, reason: error instanceof Error ? error.message : String(error) }));
    if (!probe.ok) return mediaFailure(164, `The video is not a valid MP4/MOV file: ${probe.reason}.`, { mediaUrl: check.url });
    return { kind: 'video', check, type: sniffed.type, seconds: probe.seconds, size: probe.bytes ?? check.contentLength };
  }

  let bytes = first.bytes;
  if (first.total !== null && first.total > first.bytes.length) {
    if (first.total > maxImageBytes) return mediaFailure(164, `The image is larger than ${maxImageBytes} bytes.`, { mediaUrl: check.url, bytes: first.total });
    try {
      bytes = (await reader.read(0, first.total)).bytes;
    } catch (error) {
      return downloadFailure(check.url, error, 451);
    }
  }
  try {
    const info = await deps.converter.inspect(bytes, sniffed.type);
    return { kind: 'image', check, type: sniffed.type, bytes, info };
  } catch (error) {
    if (error instanceof ConversionUnavailableError) return probeUnavailable(error);
    // HEIC/AVIF that cannot be decoded cannot be converted either.
    const needsConversion = sniffed.type === 'image/heic' || sniffed.type === 'image/heif' || sniffed.type === 'image/avif';
    return mediaFailure(needsConversion ? 450 : 164, needsConversion ? 'Image conversion to JPEG failed: the image cannot be decoded.' : 'The image cannot be decoded.', {
      mediaUrl: check.url,
      type: sniffed.type,
      reason: error instanceof Error ? error.message : String(error),
    });
  }
}

export function probeUnavailable(error: Error): MediaFailure {
  return mediaFailure(499, 'The media probe is unavailable right now; try again.', { reason: error.message }, true);
}

function downloadFailure(url: string, error: unknown, code: number): MediaFailure {
  if (error instanceof RangeReadError) {
    const what = code === 451 ? 'Image download for conversion failed' : 'The media download failed';
    return mediaFailure(code, `${what}: the host answered HTTP ${error.status}.`, { mediaUrl: url, status: error.status });
  }
  const failure = unreachable(url, error, code);
  return code === 451 ? { ...failure, message: `Image download for conversion failed: ${failure.message}` } : failure;
}
