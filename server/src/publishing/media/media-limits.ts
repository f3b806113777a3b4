/**
 * @module
 * Media limits beside the capability table (src/protocol/publishing/capabilities.ts): the largest video each
 * network takes (read from the table) and the image aspect ratios a network enforces (140). From the networks'
 * API documentation (publishing anchors, section 4); a network missing here has no such limit.
 */
import { NETWORKS, type Network } from '@social-link-kit/protocol';
import { PUBLISHING_CAPABILITIES } from '@social-link-kit/protocol/publishing/capabilities.js';

/** The capability table states each network's video size limit once; this is its lookup by network. */
export const VIDEO_MAX_BYTES: Partial<Record<Network, number>> = Object.fromEntries(
  NETWORKS.flatMap((network) => {
    const max = PUBLISHING_CAPABILITIES[network].media.videoMaxBytes;
    return max === undefined ? [] : [[network, max]];
  }),
);

/** Width / height bounds of feed images. */
export const IMAGE_ASPECT_RATIO: Partial<Record<Network, { min: number; max: number; label: string }>> = {
  instagram: { min: 4 / 5, max: 1.91, label: 'between 4:5 and 1.91:1' },
  threads: { min: 1 / 10, max: 10, label: 'between 1:10 and 10:1' },
};
