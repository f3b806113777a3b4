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

/**
 * Every network a link session can connect, in the order the hosted page lists them when a link allows every
 * network. A plain list beside the entries below, so a bundle that needs only the ids (the widget's message check)
 * leaves the entries out.
 */
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
} as const satisfies Record<Network, NetworkEntry>;

type Catalog = typeof NETWORK_CATALOG;
export type UnlinkableNetwork = { [N in Network]: Catalog[N]['unlinkable'] extends true ? N : never }[Network];

// The derived lists are pure (marked for the bundler), so bundles that do not use them leave them out.
/** The networks `DELETE /profiles/social` accepts, alphabetical as the API reports them. */
export const UNLINKABLE_NETWORKS = /* @__PURE__ */ NETWORKS.filter((network) => NETWORK_CATALOG[network].unlinkable).sort() as readonly UnlinkableNetwork[];

/** Display names, translatable through the hosted page's text table. */
export const NETWORK_LABELS = /* @__PURE__ */ Object.fromEntries(
  /* @__PURE__ */ NETWORKS.map((network) => [network, NETWORK_CATALOG[network].label]),
) as Record<Network, string>;

/** Networks the interface names that this service does not offer: whatsapp is a private beta there (spec 1). */
export const NOT_OFFERED_NETWORKS = ['whatsapp'] as const;

export function isNetwork(value: unknown): value is Network {
  return typeof value === 'string' && (NETWORKS as readonly string[]).includes(value);
}

export function connectMethodOf(network: Network): ConnectMethod {
  return NETWORK_CATALOG[network].connectMethod;
}
