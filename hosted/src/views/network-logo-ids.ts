/**
 * The network marks' ids in the page: hosted/vite.config.ts puts the sprite's symbols into the HTML with this
 * prefix, and ./network-logo.ts points at them. No imports, so the build config can read it too.
 */
export const NETWORK_MARK_ID_PREFIX = 'network-';
