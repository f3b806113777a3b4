/**
 * @module
 * Every sandbox network under `/sandbox` (mounted only when the sandbox runs): one fake per network in its own wire
 * format at the path its adapter calls (`SANDBOX_NETWORK_FAKES`: the bluesky PDS at `/xrpc/…`, the telegram Bot API at
 * `/telegram/bot<token>/…`, `/facebook/…`, …), and what they share: the generic API with its engagement routes and
 * refresh switches (`/net/{platform}/…`), the OAuth server (`/oauth/…`) and the feed page (`/feed`, feed-page.ts).
 */
import type { Network } from '@social-link-kit/protocol';
import type { SandboxEnv, SandboxHost } from '@social-link-kit/server/sandbox-host.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { Hono } from 'hono';
import { sandboxPdsRoutes } from './bluesky-pds.js';
import { slowAnswers } from './slow-answers.js';
import { sandboxBlueskyVideoRoutes } from './bluesky-video-api.js';
import { sandboxUnsplashRoutes } from './unsplash-api.js';
import { sandboxFeedRoutes } from './feed-page.js';
import { genericSandboxApi } from './generic-api.js';
import { sandboxEngagementApi } from './engagement-api.js';
import { sandboxBlueskyAppViewRoutes } from './bluesky-appview.js';
import { sandboxTelegramRoutes } from './telegram-bot-api.js';
import { sandboxTwitterRoutes } from './twitter-api.js';
import { sandboxLinkedInRoutes } from './linkedin-api.js';
import { sandboxRedditRoutes } from './reddit-api.js';
import { sandboxPinterestRoutes } from './pinterest-api.js';
import { refuseNulInAddress } from './input-guards.js';
import { sandboxFacebookRoutes } from './facebook-api.js';
import { sandboxInstagramRoutes } from './instagram-api.js';
import { sandboxThreadsRoutes } from './threads-api.js';
import { sandboxYoutubeRoutes } from './youtube-api.js';
import { sandboxTiktokRoutes } from './tiktok-api.js';
import { sandboxGmbRoutes } from './gmb-api.js';
import { sandboxSnapchatRoutes } from './snapchat-api.js';
import { sandboxTwitterEngagementRoutes } from './twitter-engagement-api.js';
import { sandboxYoutubeEngagementRoutes } from './youtube-engagement-api.js';
import { sandboxLinkedInEngagementRoutes } from './linkedin-engagement-api.js';
import { sandboxTiktokEngagementRoutes } from './tiktok-engagement-api.js';
import { sandboxOAuthServerRoutes } from './oauth-server.js';
import { sandboxRefreshSwitchRoutes } from './refresh-switches.js';

type Routes = (host: SandboxHost) => Hono<SandboxEnv>;

interface NetworkFake {
  /** Where under `/sandbox` it is mounted; the adapter's sandbox path starts with it. */
  mount: string;
  /** Its addresses, for the NUL guard (a fake mounted at `/` names its own). */
  paths: readonly string[];
  /** In order: the first that answers a request wins. */
  routes: readonly Routes[];
}

const own = (mount: string, ...routes: Routes[]): NetworkFake => ({ mount, paths: [`${mount}/*`], routes });

/** One fake per network: a network without one does not compile. */
export const SANDBOX_NETWORK_FAKES = {
  bluesky: { mount: '/', paths: ['/xrpc/*', '/profile/*'], routes: [sandboxPdsRoutes, sandboxBlueskyVideoRoutes, sandboxBlueskyAppViewRoutes] },
  telegram: own('/telegram', sandboxTelegramRoutes),
  facebook: own('/facebook', sandboxFacebookRoutes),
  instagram: own('/instagram', sandboxInstagramRoutes),
  threads: own('/threads', sandboxThreadsRoutes),
  youtube: own('/youtube', sandboxYoutubeEngagementRoutes, sandboxYoutubeRoutes),
  tiktok: own('/tiktok', sandboxTiktokEngagementRoutes, sandboxTiktokRoutes),
  twitter: own('/twitter', sandboxTwitterEngagementRoutes, sandboxTwitterRoutes),
  linkedin: own('/linkedin', sandboxLinkedInEngagementRoutes, sandboxLinkedInRoutes),
  reddit: own('/reddit', sandboxRedditRoutes),
  pinterest: own('/pinterest', sandboxPinterestRoutes),
  gmb: own('/gmb', sandboxGmbRoutes),
  snapchat: own('/snapchat', sandboxSnapchatRoutes),
} satisfies Record<Network, NetworkFake>;

/** What the fakes share: the generic API (engagement, refresh switches), the OAuth server, the feed page; and the
 * stock photo provider (unsplash), which is not a network. */
const SHARED_PATHS = ['/net/*', '/feed', '/oauth/*', '/unsplash/*'];
/** Pages a person looks at (the feed, bluesky's profile pages): never slowed down. */
const PAGE_PATHS = ['/feed', '/profile/*'];

export function sandboxNetworkRoutes(host: SandboxHost): Hono<SandboxEnv> {
  const routes = new Hono<SandboxEnv>();
  const fakes: readonly NetworkFake[] = Object.values(SANDBOX_NETWORK_FAKES);
  // Only this module's paths: other sandbox parts (consent page, media host) share the /sandbox prefix.
  // `[[slow:MS]]` and `[[reset]]` in a request (docs/sandbox-faults.md) delay its answer or cut the connection after it.
  for (const path of [...SHARED_PATHS, ...fakes.flatMap((fake) => fake.paths)]) routes.use(path, refuseNulInAddress(), slowAnswers());
  // SANDBOX_LATENCY_MS: the network APIs (not the pages people look at) answer as slowly as real ones do.
  const latencyMs = host.config.sandboxLatencyMs;
  const apiPaths = ['/net/*', '/oauth/*', ...fakes.flatMap((fake) => fake.paths)].filter((path) => !PAGE_PATHS.includes(path));
  if (latencyMs > 0) for (const path of apiPaths) routes.use(path, (_c, next) => sleep(latencyMs).then(next));
  routes.route('/net', sandboxRefreshSwitchRoutes(host));
  routes.route('/net', sandboxEngagementApi(host));
  routes.route('/net', genericSandboxApi(host));
  for (const fake of fakes) for (const fakeRoutes of fake.routes) routes.route(fake.mount, fakeRoutes(host));
  routes.route('/oauth', sandboxOAuthServerRoutes(host));
  routes.route('/unsplash', sandboxUnsplashRoutes(host));
  routes.route('/', sandboxFeedRoutes(host));
  return routes;
}
