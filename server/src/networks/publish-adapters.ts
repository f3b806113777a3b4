/**
 * @module
 * Which adapter publishes to each network, and at which base URL. Every network has one (`satisfies` makes a
 * missing network a type error). bluesky (XRPC) and telegram (Bot API) have their own adapters; the networks without
 * a real adapter yet use the generic sandbox adapter.
 */
import { NETWORKS, type Network } from '../../../src/protocol/index.js';
import type { PublishAdapter } from './publish-adapter.js';
import { sandboxPublishAdapter } from './sandbox-publish.js';
import { blueskyPublishAdapter } from './bluesky/publish.js';
import { telegramPublishAdapter } from './telegram/publish.js';
import { twitterPublishAdapter } from './twitter/publish.js';
import { linkedinPublishAdapter } from './linkedin/publish.js';
import { redditPublishAdapter } from './reddit/publish.js';
import { pinterestPublishAdapter } from './pinterest/publish.js';

export const PUBLISH_ADAPTERS = {
  ...(Object.fromEntries(NETWORKS.map((network) => [network, sandboxPublishAdapter(network)])) as Record<Network, PublishAdapter>),
  bluesky: blueskyPublishAdapter,
  telegram: telegramPublishAdapter,
  twitter: twitterPublishAdapter,
  linkedin: linkedinPublishAdapter,
  reddit: redditPublishAdapter,
  pinterest: pinterestPublishAdapter,
} satisfies Record<Network, PublishAdapter>;

/**
 * Sandbox paths of the networks whose own adapter speaks their real wire format (bluesky's XRPC at the sandbox PDS,
 * telegram's Bot API); the rest use the generic sandbox API. Add an entry when its adapter is registered above.
 */
const OWN_SANDBOX_PATHS: Partial<Record<Network, string>> = { bluesky: '/sandbox', telegram: '/sandbox/telegram', twitter: '/sandbox/twitter', linkedin: '/sandbox/linkedin', reddit: '/sandbox/reddit', pinterest: '/sandbox/pinterest' };

/** The real APIs of the networks whose adapter speaks their wire format (the same code runs against the sandbox). */
const REAL_BASE_URLS: Partial<Record<Network, string>> = {
  twitter: 'https://api.x.com',
  linkedin: 'https://api.linkedin.com',
  reddit: 'https://oauth.reddit.com',
  pinterest: 'https://api.pinterest.com',
};

/** The API base an adapter calls for an account: the sandbox on this service's own origin, or the network's real API; null for a real network without an adapter. */
export function publishBaseUrl(platform: Network, publicUrl: string, sandbox: boolean): string | null {
  if (!sandbox) return REAL_BASE_URLS[platform] ?? null;
  return `${publicUrl}${OWN_SANDBOX_PATHS[platform] ?? `/sandbox/net/${platform}`}`;
}
