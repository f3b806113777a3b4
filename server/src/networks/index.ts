/**
 * @module
 * Every network's server-side half, one folder each. `satisfies Record<Network, NetworkLink>`: a network added
 * to the protocol's catalogue without its folder here does not compile.
 */
import type { Network } from '@social-link-kit/protocol';
import { blueskyLink } from './bluesky/link.js';
import { facebookLink } from './facebook/link.js';
import { gmbLink } from './gmb/link.js';
import { instagramLink } from './instagram/link.js';
import type { NetworkLink, OAuthLink } from './link.js';
import { linkedinLink } from './linkedin/link.js';
import { pinterestLink } from './pinterest/link.js';
import { redditLink } from './reddit/link.js';
import { snapchatLink } from './snapchat/link.js';
import { telegramLink } from './telegram/link.js';
import { threadsLink } from './threads/link.js';
import { tiktokLink } from './tiktok/link.js';
import { twitterLink } from './twitter/link.js';
import { youtubeLink } from './youtube/link.js';
import type { OAuthNetworkDefinition } from './oauth/definition.js';

export const NETWORK_LINKS = {
  twitter: twitterLink,
  facebook: facebookLink,
  instagram: instagramLink,
  linkedin: linkedinLink,
  youtube: youtubeLink,
  gmb: gmbLink,
  tiktok: tiktokLink,
  pinterest: pinterestLink,
  reddit: redditLink,
  threads: threadsLink,
  snapchat: snapchatLink,
  bluesky: blueskyLink,
  telegram: telegramLink,
} satisfies Record<Network, NetworkLink>;

/** The networks whose folder links them with OAuth, derived from the folders (no list of names). */
export type OAuthNetwork = { [N in Network]: (typeof NETWORK_LINKS)[N] extends OAuthLink ? N : never }[Network];

export function isOAuthNetwork(network: Network): network is OAuthNetwork {
  return NETWORK_LINKS[network].method === 'oauth';
}

/** The real OAuth definition of each OAuth network. */
export const OAUTH_NETWORKS = Object.fromEntries(
  Object.entries(NETWORK_LINKS).flatMap(([network, link]) => (link.method === 'oauth' ? [[network, link.definition]] : [])),
) as Record<OAuthNetwork, OAuthNetworkDefinition>;

/** instagram through a connected Facebook page (`instagramLinkMethod: 'facebook'`). */
export const INSTAGRAM_VIA_FACEBOOK: OAuthNetworkDefinition = instagramLink.viaFacebookPage.definition;
