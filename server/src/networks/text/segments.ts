/** The text segmenter lives in the protocol (shared with the demo composer): ../../../../src/protocol/publishing/segments.ts. */
export * from '@social-link-kit/protocol/publishing/segments.js';
