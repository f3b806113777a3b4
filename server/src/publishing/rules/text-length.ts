/** Text length per network unit lives in the protocol (shared with the demo composer): ../../../../src/protocol/publishing/text-length.ts. */
export * from '../../../../src/protocol/publishing/text-length.js';
