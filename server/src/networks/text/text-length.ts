/** Text length per network unit lives in the protocol (shared with the demo composer): ../../../../src/protocol/publishing/text-length.ts. */
export * from '@social-link-kit/protocol/publishing/text-length.js';
