/**
 * @module
 * Protocol constants with no zod behind them, so the hosted page and the widget can import them without
 * pulling the schema library into their bundles.
 */
export const MESSAGE_SOURCE = 'social-link-kit';
export const PROTOCOL_VERSION = 1;

/** Every network a link session can connect. */
export const NETWORKS = [
  'facebook',
  'instagram',
  'linkedin',
  'twitter',
  'youtube',
  'tiktok',
  'pinterest',
  'reddit',
  'gmb',
  'threads',
  'snapchat',
  'bluesky',
  'telegram',
] as const;
export type Network = (typeof NETWORKS)[number];

/** Why a connection ended without an account. */
export const CANCEL_REASONS = ['close_button', 'escape', 'popup_closed', 'expired', 'revoked', 'superseded', 'denied'] as const;

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
