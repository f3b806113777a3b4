/**
 * @module
 * Every network the service speaks, one module each (`networks/<id>/index.ts`, module.ts): its link half, publish
 * and engagement halves, API bases, limits and options key. `satisfies Record<Network, NetworkModule>`: a network
 * added to the protocol's catalogue without its module here does not compile.
 */
import type { Network } from '@social-link-kit/protocol';
import { blueskyNetwork } from './bluesky/index.js';
import { lookAfterUncertainCommit } from './uncertain-call.js';
import { facebookNetwork } from './facebook/index.js';
import { gmbNetwork } from './gmb/index.js';
import { instagramNetwork } from './instagram/index.js';
import { linkedinNetwork } from './linkedin/index.js';
import { pinterestNetwork } from './pinterest/index.js';
import { redditNetwork } from './reddit/index.js';
import { snapchatNetwork } from './snapchat/index.js';
import { telegramNetwork } from './telegram/index.js';
import { threadsNetwork } from './threads/index.js';
import { tiktokNetwork } from './tiktok/index.js';
import { twitterNetwork } from './twitter/index.js';
import { youtubeNetwork } from './youtube/index.js';
import type { OAuthLink } from './link.js';
import type { PublishAdapter } from './publish-adapter.js';
import type { NetworkModule } from './module.js';
import type { OAuthNetworkDefinition } from './oauth/definition.js';

export const NETWORKS = {
  twitter: twitterNetwork,
  facebook: facebookNetwork,
  instagram: instagramNetwork,
  linkedin: linkedinNetwork,
  youtube: youtubeNetwork,
  gmb: gmbNetwork,
  tiktok: tiktokNetwork,
  pinterest: pinterestNetwork,
  reddit: redditNetwork,
  threads: threadsNetwork,
  snapchat: snapchatNetwork,
  bluesky: blueskyNetwork,
  telegram: telegramNetwork,
} satisfies Record<Network, NetworkModule>;

/** The module of `platform`, typed as the contract (NETWORKS keeps each module's own literal type). */
export function networkModule(platform: Network): NetworkModule {
  return NETWORKS[platform];
}

/** Each network's publish half, keyed by network: a view of NETWORKS for what is given the adapters (tests swap one). */
// A commit cut after its request was sent is decided by looking (uncertain-call.ts), for every network.
export const PUBLISH_ADAPTERS = Object.fromEntries(Object.entries(NETWORKS).map(([network, module]) => [network, lookAfterUncertainCommit(module.publish)])) as Record<Network, PublishAdapter>;

/** The networks whose folder links them with OAuth, derived from the modules (no list of names). */
export type OAuthNetwork = { [N in Network]: (typeof NETWORKS)[N]['link'] extends OAuthLink ? N : never }[Network];

export function isOAuthNetwork(network: Network): network is OAuthNetwork {
  return NETWORKS[network].link.method === 'oauth';
}

/** The real OAuth definition of each OAuth network. */
export const OAUTH_NETWORKS = Object.fromEntries(
  Object.entries(NETWORKS).flatMap(([network, { link }]) => (link.method === 'oauth' ? [[network, link.definition]] : [])),
) as Record<OAuthNetwork, OAuthNetworkDefinition>;

/** instagram through a connected Facebook page (`instagramLinkMethod: 'facebook'`). */
export const INSTAGRAM_VIA_FACEBOOK: OAuthNetworkDefinition = NETWORKS.instagram.link.viaFacebookPage.definition;

/**
 * The API base an adapter calls for an account: the sandbox on this service's own origin, or the network's real API
 * (or the operator's `<NETWORK>_API_BASE_URL` in its place); null where the account's tokens carry it.
 */
export function publishBaseUrl(platform: Network, publicUrl: string, sandbox: boolean, realBases: Partial<Record<string, string>> = {}): string | null {
  const { api } = networkModule(platform);
  return sandbox ? `${publicUrl}${api.sandboxPath}` : (realBases[platform] ?? api.real);
}
