/** Thread splitting lives in the protocol (shared with the demo composer): src/protocol/publishing/thread-split.ts. */
export * from '@social-link-kit/protocol/publishing/thread-split.js';
