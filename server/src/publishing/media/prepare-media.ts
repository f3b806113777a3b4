/**
 * @module
 * One media URL made ready for one network: inspected (inspect-media.ts), judged (media-plan.ts), converted to JPEG
 * in the worker pool when the network needs it (450 when that fails), and stored with a signed, expiring address
 * under the service's public URL (452, retryable, when storing fails). Media taken as it is keeps its own URL.
 */
import type { Network } from '@social-link-kit/protocol';
import { ConversionUnavailableError } from './image-conversion-pool.js';
import { inspectMedia, probeUnavailable, type MediaDeps } from './inspect-media.js';
import { isMediaFailure, mediaFailure, type MediaFailure } from './media-failure.js';
import { planMedia, type MediaPlanOptions } from './media-plan.js';

export interface PreparedMedia {
  /** The address the network should get: the origin's, or a signed address of the converted copy. */
  url: string;
  contentType: string;
  /** The file, when the service downloaded it (images); push networks upload these bytes. */
  bytes?: Uint8Array;
  converted: boolean;
  /** Served from the service's media store (a converted or re-hosted copy), not from the origin. */
  stored: boolean;
}

export interface PrepareOptions extends MediaPlanOptions {
  /** Store images even when the network could take the origin's file (its crawler could not fetch the origin). */
  rehost?: boolean;
}

export async function prepareMediaForPlatform(url: string, platform: Network, deps: MediaDeps, options: PrepareOptions = {}): Promise<PreparedMedia | MediaFailure> {
  const media = await inspectMedia(url, deps);
  if (isMediaFailure(media)) return media;
  const plan = planMedia(media, platform, options);
  if (plan.action === 'refuse') return plan.failure;
  // Videos are never copied (they can be gigabytes): a crawler that cannot fetch one cannot be helped.
  if (media.kind === 'video') return { url: media.check.url, contentType: media.type, converted: false, stored: false };
  if (plan.action === 'as-is' && options.rehost) return stageImage(media.bytes, media.type, deps, false);
  if (plan.action === 'as-is') return { url: media.check.url, contentType: media.type, bytes: media.bytes, converted: false, stored: false };
  const jpeg = await convertToJpeg(media.bytes, media.type, media.check.url, deps);
  return isMediaFailure(jpeg) ? jpeg : stageJpeg(jpeg, deps);
}

/** JPEG bytes in the worker pool: 450 when the image cannot be converted, 499 when the pool is not running. */
export async function convertToJpeg(bytes: Uint8Array, type: string, mediaUrl: string, deps: MediaDeps): Promise<Uint8Array | MediaFailure> {
  try {
    return (await deps.converter.toJpeg(bytes, type)).bytes;
  } catch (error) {
    if (error instanceof ConversionUnavailableError) return probeUnavailable(error);
    return mediaFailure(450, `Image conversion to JPEG failed (${type}).`, { mediaUrl, reason: error instanceof Error ? error.message : String(error) });
  }
}

/** Stores a JPEG and hands out its signed address: 452 (retryable) when the store cannot be written. */
export async function stageJpeg(jpeg: Uint8Array, deps: MediaDeps): Promise<PreparedMedia | MediaFailure> {
  return stageImage(jpeg, 'image/jpeg', deps, true);
}

async function stageImage(bytes: Uint8Array, contentType: string, deps: MediaDeps, converted: boolean): Promise<PreparedMedia | MediaFailure> {
  try {
    const stored = await deps.store.put(bytes, contentType);
    return { url: deps.store.signedUrl(stored.name, deps.now()), contentType, bytes, converted, stored: true };
  } catch (error) {
    // Only the error code: the message would show the server's file paths.
    return mediaFailure(452, `The ${converted ? 'converted' : 're-hosted'} image could not be staged; try again.`, { reason: (error as NodeJS.ErrnoException).code ?? 'store error' }, true);
  }
}

export type { MediaDeps, MediaFailure };
