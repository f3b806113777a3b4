/**
 * @module
 * Protocol constants with no zod behind them, so the hosted page and the widget can import them without
 * pulling the schema library into their bundles.
 */
import type { Network } from './networks.js';

export const MESSAGE_SOURCE = 'social-link-kit';
export const PROTOCOL_VERSION = 1;

/** Display names, kept here so the hosted page and the demo agree; translatable through the page's text table. */
export const NETWORK_LABELS: Record<Network, string> = {
  facebook: 'Facebook',
  instagram: 'Instagram',
  linkedin: 'LinkedIn',
  twitter: 'X (Twitter)',
  youtube: 'YouTube',
  tiktok: 'TikTok',
  pinterest: 'Pinterest',
  reddit: 'Reddit',
  gmb: 'Google Business Profile',
  threads: 'Threads',
  snapchat: 'Snapchat',
  bluesky: 'Bluesky',
  telegram: 'Telegram',
};
