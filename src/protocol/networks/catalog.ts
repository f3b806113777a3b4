/**
 * @module
 * The network catalogue: the one list of networks a link session can connect, with what every runtime may read
 * about each (display name, how the user proves ownership, whether the unlink operation accepts it). No zod and
 * no DOM or Node APIs, so the widget, the hosted page, the demo and the server all import it.
 *
 * Adding a network means adding one entry here; everything keyed by `Network` elsewhere (the server's per-network
 * folders, the publishing capabilities in `../publishing/capabilities.ts`) is written
 * `satisfies Record<Network, …>`, so a missing half is a compile error.
 */

/** How the end user proves they own an account: OAuth 2.0 in a popup, a credentials form, or a code sent to a bot. */
export const CONNECT_METHODS = ['oauth', 'credentials', 'bot'] as const;
export type ConnectMethod = (typeof CONNECT_METHODS)[number];

/** How Instagram accounts connect: Instagram Login, or through the Facebook Page they belong to. */
export const INSTAGRAM_LINK_METHODS = ['instagram', 'facebook'] as const;

export interface NetworkEntry {
  /** Display name; the hosted page and the demo show it. */
  readonly label: string;
  readonly connectMethod: ConnectMethod;
  /** Whether `DELETE /profiles/social` accepts it (the unlink operation lists eleven networks). */
  readonly unlinkable: boolean;
}

/** In the order the hosted page lists them when a link allows every network. */
export const NETWORK_CATALOG = {
  facebook: { label: 'Facebook', connectMethod: 'oauth', unlinkable: true },
  instagram: { label: 'Instagram', connectMethod: 'oauth', unlinkable: true },
  linkedin: { label: 'LinkedIn', connectMethod: 'oauth', unlinkable: true },
  twitter: { label: 'X (Twitter)', connectMethod: 'oauth', unlinkable: true },
  youtube: { label: 'YouTube', connectMethod: 'oauth', unlinkable: true },
  tiktok: { label: 'TikTok', connectMethod: 'oauth', unlinkable: true },
  pinterest: { label: 'Pinterest', connectMethod: 'oauth', unlinkable: false },
  reddit: { label: 'Reddit', connectMethod: 'oauth', unlinkable: true },
  gmb: { label: 'Google Business Profile', connectMethod: 'oauth', unlinkable: true },
  threads: { label: 'Threads', connectMethod: 'oauth', unlinkable: true },
  snapchat: { label: 'Snapchat', connectMethod: 'oauth', unlinkable: false },
  bluesky: { label: 'Bluesky', connectMethod: 'credentials', unlinkable: true },
  telegram: { label: 'Telegram', connectMethod: 'bot', unlinkable: true },
} as const satisfies Record<string, NetworkEntry>;

type Catalog = typeof NETWORK_CATALOG;
export type Network = keyof Catalog;
export type UnlinkableNetwork = { [N in Network]: Catalog[N]['unlinkable'] extends true ? N : never }[Network];

const entries = Object.entries(NETWORK_CATALOG) as [Network, NetworkEntry][];

/** Every network a link session can connect. */
export const NETWORKS: readonly Network[] = entries.map(([network]) => network);

/** The networks `DELETE /profiles/social` accepts, alphabetical as the API reports them. */
export const UNLINKABLE_NETWORKS = entries
  .filter(([, entry]) => entry.unlinkable)
  .map(([network]) => network as UnlinkableNetwork)
  .sort() as readonly UnlinkableNetwork[];

/** Display names, translatable through the hosted page's text table. */
export const NETWORK_LABELS = Object.fromEntries(entries.map(([network, entry]) => [network, entry.label])) as Record<Network, string>;

export function isNetwork(value: unknown): value is Network {
  return typeof value === 'string' && Object.hasOwn(NETWORK_CATALOG, value);
}

export function connectMethodOf(network: Network): ConnectMethod {
  return NETWORK_CATALOG[network].connectMethod;
}
