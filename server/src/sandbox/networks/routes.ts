/**
 * @module
 * Every sandbox network under `/sandbox` (mounted only when the sandbox runs): the bluesky PDS (`/xrpc/…`), the
 * generic API of the other networks (`/net/{platform}/…`), the telegram Bot API (`/telegram/bot<token>/…`) and the
 * feed page (`/feed`, feed-page.ts).
 */
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../../context.js';
import { sandboxPdsRoutes } from './bluesky-pds.js';
import { sandboxFeedRoutes } from './feed-page.js';
import { genericSandboxApi } from './generic-api.js';
import { sandboxTelegramRoutes } from './telegram-bot-api.js';
import { refuseNulInAddress } from './input-guards.js';

export function sandboxNetworkRoutes(deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  // Only this module's paths: other sandbox parts (consent page, media host) share the /sandbox prefix.
  for (const path of ['/xrpc/*', '/net/*', '/telegram/*', '/feed', '/profile/*']) routes.use(path, refuseNulInAddress());
  routes.route('/', sandboxPdsRoutes(deps));
  routes.route('/net', genericSandboxApi(deps));
  routes.route('/telegram', sandboxTelegramRoutes(deps));
  routes.route('/', sandboxFeedRoutes(deps));
  return routes;
}
