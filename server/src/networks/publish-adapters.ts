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

export const PUBLISH_ADAPTERS = {
  ...(Object.fromEntries(NETWORKS.map((network) => [network, sandboxPublishAdapter(network)])) as Record<Network, PublishAdapter>),
  bluesky: blueskyPublishAdapter,
  telegram: telegramPublishAdapter,
} satisfies Record<Network, PublishAdapter>;

/**
 * Sandbox paths of the networks whose own adapter speaks their real wire format (bluesky's XRPC at the sandbox PDS,
 * telegram's Bot API); the rest use the generic sandbox API. Add an entry when its adapter is registered above.
 */
const OWN_SANDBOX_PATHS: Partial<Record<Network, string>> = { bluesky: '/sandbox', telegram: '/sandbox/telegram' };

/** The API base an adapter calls for an account: the sandbox on this service's own origin; null for a real network not configured. */
export function publishBaseUrl(platform: Network, publicUrl: string, sandbox: boolean): string | null {
  if (!sandbox) return null;
  return `${publicUrl}${OWN_SANDBOX_PATHS[platform] ?? `/sandbox/net/${platform}`}`;
}
