/**
 * @module
 * What one network does with an inspected media file (spec 4.9 rule 2 and the network catalogue): take it as it
 * is, convert it to JPEG (HEIC/HEIF/AVIF always; WebP where `convertWebp`; any image type the network does not
 * list), or refuse it: 164 (no images/videos there), 182 (video duration or size; twitter `longVideo` up to 4 h),
 * 140 (aspect ratio, the message gives the current ratio).
 */
import { PUBLISHING_CAPABILITIES, TWITTER_LONG_VIDEO_SECONDS } from '@social-link-kit/protocol/publishing/capabilities.js';
import type { Network } from '@social-link-kit/protocol';
import { mediaFailure, type MediaFailure } from './media-failure.js';
import { networkModule } from '../../networks/index.js';
import type { MediaInspection } from './inspect-media.js';

export type MediaPlan = { action: 'as-is' } | { action: 'convert-to-jpeg'; reason: string } | { action: 'refuse'; failure: MediaFailure };

export interface MediaPlanOptions {
  /** twitter `longVideo: true` (approved accounts): up to 4 hours. */
  longVideo?: boolean;
}

const ALWAYS_CONVERTED = new Set(['image/heic', 'image/heif', 'image/avif']);

export function planMedia(media: MediaInspection, platform: Network, options: MediaPlanOptions = {}): MediaPlan {
  const capabilities = PUBLISHING_CAPABILITIES[platform].media;
  if (media.kind === 'video') {
    if (!capabilities.videos) return refuse(mediaFailure(164, `${platform} does not take videos.`, { platform }));
    const max = platform === 'twitter' && options.longVideo ? TWITTER_LONG_VIDEO_SECONDS : capabilities.videoSeconds.max;
    const { min } = capabilities.videoSeconds;
    if (media.seconds < min || media.seconds > max) {
      return refuse(
        mediaFailure(182, `The video is ${round(media.seconds)} s long; ${platform} takes videos of ${min} to ${max} s.`, {
          platform,
          seconds: round(media.seconds),
          minSeconds: min,
          maxSeconds: max,
        }),
      );
    }
    const maxBytes = PUBLISHING_CAPABILITIES[platform].media.videoMaxBytes;
    if (maxBytes !== undefined && media.size !== null && media.size > maxBytes) {
      return refuse(mediaFailure(182, `The video is ${media.size} bytes; ${platform} takes videos up to ${maxBytes} bytes.`, { platform, bytes: media.size, maxBytes }));
    }
    return { action: 'as-is' };
  }

  if (!capabilities.images) return refuse(mediaFailure(164, `${platform} does not take images.`, { platform }));
  const ratioRule = networkModule(platform).limits.imageAspectRatio;
  const ratio = media.info.width / media.info.height;
  if (ratioRule && (ratio < ratioRule.min - 0.005 || ratio > ratioRule.max + 0.005)) {
    return refuse(
      mediaFailure(140, `The image aspect ratio is ${round(ratio)}:1 (${media.info.width}×${media.info.height}); ${platform} takes ratios ${ratioRule.label}.`, {
        platform,
        width: media.info.width,
        height: media.info.height,
        ratio: round(ratio),
      }),
    );
  }
  if (ALWAYS_CONVERTED.has(media.type)) return { action: 'convert-to-jpeg', reason: `${media.type} is converted to JPEG for every network` };
  if (media.type === 'image/webp' && capabilities.convertWebp) return { action: 'convert-to-jpeg', reason: `${platform} does not take WebP` };
  if (!capabilities.imageTypes.includes(media.type)) return { action: 'convert-to-jpeg', reason: `${platform} does not take ${media.type}` };
  return { action: 'as-is' };
}

function refuse(failure: MediaFailure): MediaPlan {
  return { action: 'refuse', failure };
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
