/**
 * @module
 * The social networks an end user can link, and the subset that the unlink operation accepts (spec 4.1).
 */
import { z } from 'zod';
import { NETWORKS } from './constants.js';

export { NETWORKS };
export const Network = z.enum(NETWORKS);
export type Network = z.infer<typeof Network>;

/** The networks `DELETE /profiles/social` accepts (spec 4.1 lists eleven). */
export const UNLINKABLE_NETWORKS = [
  'bluesky',
  'facebook',
  'gmb',
  'instagram',
  'linkedin',
  'reddit',
  'telegram',
  'threads',
  'tiktok',
  'twitter',
  'youtube',
] as const satisfies readonly Network[];
export const UnlinkableNetwork = z.enum(UNLINKABLE_NETWORKS);
export type UnlinkableNetwork = z.infer<typeof UnlinkableNetwork>;

/** How the end user proves they own an account on a network. */
export const CONNECT_METHODS = ['oauth', 'credentials', 'bot'] as const;
export type ConnectMethod = (typeof CONNECT_METHODS)[number];

export const INSTAGRAM_LINK_METHODS = ['instagram', 'facebook'] as const;
export const InstagramLinkMethod = z.enum(INSTAGRAM_LINK_METHODS);
export type InstagramLinkMethod = z.infer<typeof InstagramLinkMethod>;

export { NETWORK_LABELS } from './constants.js';

export function isNetwork(value: unknown): value is Network {
  return typeof value === 'string' && (NETWORKS as readonly string[]).includes(value);
}

/** bluesky links with a handle and app password, telegram through a bot; every other network with OAuth 2.0. */
export function connectMethodOf(network: Network): ConnectMethod {
  if (network === 'bluesky') return 'credentials';
  if (network === 'telegram') return 'bot';
  return 'oauth';
}
