/**
 * @module
 * bluesky's limits, stated once: the protocol's capability table (what the composer, the request checks and the
 * sandbox allow) gives the text length, the number of media and the image and video bounds; the lexicon's byte bound
 * on the text is the PDS's own.
 */
import { PUBLISHING_CAPABILITIES } from '@social-link-kit/protocol/publishing/capabilities.js';

const capabilities = PUBLISHING_CAPABILITIES.bluesky;

export const BLUESKY_LIMITS = {
  graphemes: capabilities.text.max,
  /** The lexicon's byte bound on the text, beside the grapheme count. */
  textBytes: 3000,
  images: capabilities.media.maxItems,
  imageBytes: capabilities.media.imageMaxBytes!,
  videoMaxBytes: capabilities.media.videoMaxBytes!,
  videoSeconds: capabilities.media.videoSeconds,
} as const;
