/**
 * @module
 * Which adapter publishes to each network, and at which base URL. Every network has its own adapter speaking its
 * real API (`satisfies` makes a missing network a type error); the generic sandbox adapter (sandbox-publish.ts)
 * remains only for reading engagement on the sandbox (analytics/engagement-adapters.ts).
 */
import type { Network } from '@social-link-kit/protocol';
import type { PublishAdapter } from './publish-adapter.js';
import { blueskyPublishAdapter } from './bluesky/publish.js';
import { telegramPublishAdapter } from './telegram/publish.js';
import { facebookPublishAdapter } from './facebook/publish.js';
import { instagramPublishAdapter } from './instagram/publish.js';
import { threadsPublishAdapter } from './threads/publish.js';
import { youtubePublishAdapter } from './youtube/publish.js';
import { tiktokPublishAdapter } from './tiktok/publish.js';
import { twitterPublishAdapter } from './twitter/publish.js';
import { linkedinPublishAdapter } from './linkedin/publish.js';
import { redditPublishAdapter } from './reddit/publish.js';
import { pinterestPublishAdapter } from './pinterest/publish.js';
import { gmbPublishAdapter } from './gmb/publish.js';
import { snapchatPublishAdapter } from './snapchat/publish.js';

/** The Graph API version the Meta adapters speak (its paths follow `{base}/{version}`). */
export const GRAPH_VERSION = 'v21.0';
/** The threads API has its own versions. */
export const THREADS_VERSION = 'v1.0';

export const PUBLISH_ADAPTERS = {
  bluesky: blueskyPublishAdapter,
  telegram: telegramPublishAdapter,
  facebook: facebookPublishAdapter,
  instagram: instagramPublishAdapter,
  threads: threadsPublishAdapter,
  youtube: youtubePublishAdapter,
  tiktok: tiktokPublishAdapter,
  twitter: twitterPublishAdapter,
  linkedin: linkedinPublishAdapter,
  reddit: redditPublishAdapter,
  pinterest: pinterestPublishAdapter,
  gmb: gmbPublishAdapter,
  snapchat: snapchatPublishAdapter,
} satisfies Record<Network, PublishAdapter>;

/**
 * Sandbox paths of the networks whose own adapter speaks their real wire format (bluesky's XRPC at the sandbox PDS,
 * telegram's Bot API); the rest use the generic sandbox API. Add an entry when its adapter is registered above.
 */
const OWN_SANDBOX_PATHS: Partial<Record<Network, string>> = {
  bluesky: '/sandbox',
  telegram: '/sandbox/telegram',
  facebook: `/sandbox/facebook/${GRAPH_VERSION}`,
  instagram: `/sandbox/instagram/${GRAPH_VERSION}`,
  threads: `/sandbox/threads/${THREADS_VERSION}`,
  youtube: '/sandbox/youtube',
  tiktok: '/sandbox/tiktok',
  twitter: '/sandbox/twitter',
  linkedin: '/sandbox/linkedin',
  reddit: '/sandbox/reddit',
  pinterest: '/sandbox/pinterest',
  gmb: '/sandbox/gmb',
  snapchat: '/sandbox/snapchat',
};

/** The real APIs' bases (version prefix included), for when the network is configured with real credentials. */
export const REAL_PUBLISH_BASE_URLS: Partial<Record<Network, string>> = {
  facebook: `https://graph.facebook.com/${GRAPH_VERSION}`,
  // Accounts linked through a facebook page use graph.facebook.com with the same paths.
  instagram: `https://graph.instagram.com/${GRAPH_VERSION}`,
  threads: `https://graph.threads.net/${THREADS_VERSION}`,
  youtube: 'https://www.googleapis.com',
  tiktok: 'https://open.tiktokapis.com',
  twitter: 'https://api.x.com',
  linkedin: 'https://api.linkedin.com',
  reddit: 'https://oauth.reddit.com',
  pinterest: 'https://api.pinterest.com',
  // Local posts' host; accounts and locations live on sibling hosts (gmb/google-api.ts).
  gmb: 'https://mybusiness.googleapis.com',
  snapchat: 'https://businessapi.snapchat.com',
};


/**
 * The API base an adapter calls for an account: the sandbox on this service's own origin, or the network's real API
 * (or the operator's `<NETWORK>_API_BASE_URL` in its place); null for a real network without an adapter.
 */
export function publishBaseUrl(platform: Network, publicUrl: string, sandbox: boolean, realBases: Partial<Record<string, string>> = {}): string | null {
  if (!sandbox) return realBases[platform] ?? REAL_PUBLISH_BASE_URLS[platform] ?? null;
  return `${publicUrl}${OWN_SANDBOX_PATHS[platform] ?? `/sandbox/net/${platform}`}`;
}
