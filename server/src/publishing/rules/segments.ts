/** The text segmenter lives in the protocol (shared with the demo composer): ../../../../src/protocol/publishing/segments.ts. */
export * from '../../../../src/protocol/publishing/segments.js';
