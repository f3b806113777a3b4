/**
 * @module
 * The sandbox: fake networks that answer in each network's own wire format on the service's own origin, their
 * consent screens and OAuth server, the bluesky PDS, the stand-in telegram bot, the media host and the webhook inbox.
 * The service mounts it only when the sandbox is on, handing it a `SandboxHost` (`@social-link-kit/server/sandbox-host.js`):
 * - `sandboxSite(host)` at `/sandbox` (what the adapters, the consent pages and the feed page call);
 * - `sandboxApi(host)` at `/api/sandbox`, behind the service's API key check (the shortcuts and test switches);
 * - `sandboxTiktokJobHandlers(host)` on the job worker (the sandbox TikTok's processing callback);
 * - its two migrations stay in the service's migration list (`sandboxNetworksMigration`, `sandboxIdentityMigration`).
 */
import { Hono } from 'hono';
import type { SandboxEnv, SandboxHost } from '@social-link-kit/server/sandbox-host.js';
import { sandboxConsentRoutes } from './consent-routes.js';
import { sandboxMediaRoutes } from './media/sandbox-media-routes.js';
import { sandboxAccountRoutes, sandboxFeedUrlRoutes } from './networks/accounts-route.js';
import { sandboxNetworkRoutes } from './networks/routes.js';
import { sandboxTelegramBotRoutes } from './telegram-bot-routes.js';
import { SandboxWebhookInbox, sandboxInboxApiRoutes, sandboxInboxReceiverRoutes } from './webhook-inbox.js';

export { sandboxIdentityMigration, sandboxLookupIndexMigration, sandboxNetworksMigration } from './networks/schema.js';
export { sandboxTiktokJobHandlers } from './networks/tiktok-api.js';
export { inboxKeyOf, isOwnSandboxInbox } from './webhook-inbox.js';

export interface SandboxRoutes {
  /** Mounted at `/sandbox`. */
  site: Hono<SandboxEnv>;
  /** Mounted at `/api/sandbox`, after the service's API key check. */
  api: Hono<SandboxEnv>;
}

/** The sandbox's routes for one service; its webhook inbox (in memory) is shared by the two halves. */
export function sandboxRoutes(host: SandboxHost): SandboxRoutes {
  const inbox = new SandboxWebhookInbox();
  const api = new Hono<SandboxEnv>();
  api.route('/accounts', sandboxAccountRoutes(host));
  api.route('/feed-url', sandboxFeedUrlRoutes(host));
  api.route('/webhook-inbox', sandboxInboxApiRoutes(host, inbox));
  const site = new Hono<SandboxEnv>();
  site.route('/webhook-inbox', sandboxInboxReceiverRoutes(host, inbox));
  site.route('/', sandboxConsentRoutes(host));
  site.route('/media', sandboxMediaRoutes());
  site.route('/', sandboxNetworkRoutes(host));
  // The stand-in bot only while telegram itself runs on the sandbox bot (a real bot username set: no stand-in).
  if (host.networks.runsOnSandbox('telegram')) site.route('/', sandboxTelegramBotRoutes(host));
  return { site, api };
}
