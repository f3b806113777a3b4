/**
 * @module
 * bluesky's limits, stated once: the protocol's capability table (what the composer and the request checks allow)
 * gives the text length and the number of media; the rest are the PDS's own (`app.bsky.embed.images`, blob upload).
 */
import { PUBLISHING_CAPABILITIES } from '@social-link-kit/protocol/publishing/capabilities.js';
import { MB } from '../units.js';

const capabilities = PUBLISHING_CAPABILITIES.bluesky;

export const BLUESKY_LIMITS = {
  graphemes: capabilities.text.max,
  textBytes: 3000,
  images: capabilities.media.maxItems,
  imageBytes: 1_000_000,
  videoMaxBytes: 100 * MB,
  videoSeconds: capabilities.media.videoSeconds,
} as const;
