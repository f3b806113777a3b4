/**
 * @module
 * Zod schemas over the network catalogue (./networks/catalog.ts), which holds the facts themselves: the networks
 * an end user can link, their labels and connect methods, and the subset the unlink operation accepts.
 */
import { z } from 'zod';
import { CONNECT_METHODS, INSTAGRAM_LINK_METHODS, NETWORKS, UNLINKABLE_NETWORKS } from './networks/catalog.js';

export {
  CONNECT_METHODS,
  INSTAGRAM_LINK_METHODS,
  NETWORKS,
  NETWORK_CATALOG,
  NETWORK_LABELS,
  NOT_OFFERED_NETWORKS,
  UNLINKABLE_NETWORKS,
  connectMethodOf,
  isNetwork,
  type NetworkEntry,
} from './networks/catalog.js';

export const Network = z.enum(NETWORKS);
export type Network = z.infer<typeof Network>;

export const UnlinkableNetwork = z.enum(UNLINKABLE_NETWORKS);
export type UnlinkableNetwork = z.infer<typeof UnlinkableNetwork>;

export const ConnectMethod = z.enum(CONNECT_METHODS);
export type ConnectMethod = z.infer<typeof ConnectMethod>;

export const InstagramLinkMethod = z.enum(INSTAGRAM_LINK_METHODS);
export type InstagramLinkMethod = z.infer<typeof InstagramLinkMethod>;
