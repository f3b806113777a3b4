/**
 * @module
 * Media limits the capability table (src/protocol/publishing/capabilities.ts) does not carry: the largest video
 * each network takes by URL or upload, and the image aspect ratios a network enforces (140). From the networks'
 * API documentation (publishing anchors, section 4); a network missing here has no such limit.
 */
import type { Network } from '@social-link-kit/protocol';

const MB = 1024 * 1024;

export const VIDEO_MAX_BYTES: Partial<Record<Network, number>> = {
  bluesky: 100 * MB,
  instagram: 300 * MB,
  threads: 1024 * MB,
  twitter: 512 * MB,
  telegram: 50 * MB,
  snapchat: 32 * MB,
  linkedin: 5 * 1024 * MB,
  pinterest: 2 * 1024 * MB,
  reddit: 1024 * MB,
  tiktok: 4 * 1024 * MB,
  facebook: 10 * 1024 * MB,
};

/** Width / height bounds of feed images. */
export const IMAGE_ASPECT_RATIO: Partial<Record<Network, { min: number; max: number; label: string }>> = {
  instagram: { min: 4 / 5, max: 1.91, label: 'between 4:5 and 1.91:1' },
  threads: { min: 1 / 10, max: 10, label: 'between 1:10 and 10:1' },
};
