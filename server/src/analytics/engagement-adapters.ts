/**
 * @module
 * Which adapter reads a network's analytics, comments and replies. A network whose own adapter reads them uses it,
 * against its own sandbox or the real network alike (bluesky's comments; facebook, instagram and threads on their
 * Graph APIs; twitter, youtube, linkedin and tiktok, `networks/<id>/engagement.ts`). The other networks' real
 * adapters publish in the network's wire format but do not read engagement: on the sandbox their analytics and
 * comments come from the generic sandbox API's engagement routes (`/sandbox/net/{platform}`, which see every sandbox
 * network's posts); against a real network they are not available (101).
 */
import { NETWORKS as NETWORK_IDS, type Network } from '@social-link-kit/protocol';
import type { PublishAdapter } from '../networks/publish-adapter.js';
import { PUBLISH_ADAPTERS, publishBaseUrl } from '../networks/index.js';
import { sandboxPublishAdapter } from '../networks/sandbox-publish.js';

function readsEngagement(adapter: PublishAdapter): boolean {
  return Boolean(adapter.analytics || adapter.accountAnalytics || adapter.comments);
}

export const ENGAGEMENT_ADAPTERS = Object.fromEntries(
  NETWORK_IDS.map((network) => [network, readsEngagement(PUBLISH_ADAPTERS[network]) ? PUBLISH_ADAPTERS[network] : sandboxPublishAdapter(network)]),
) as Record<Network, PublishAdapter>;

/** The base URL the engagement adapter of `platform` calls; null when it cannot be read here. */
export function engagementBaseUrl(platform: Network, publicUrl: string, sandbox: boolean, realBases: Partial<Record<string, string>> = {}): string | null {
  if (readsEngagement(PUBLISH_ADAPTERS[platform])) return publishBaseUrl(platform, publicUrl, sandbox, realBases);
  return sandbox ? `${publicUrl}/sandbox/net/${platform}` : null;
}
