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
import { sandboxEngagementApi } from './engagement-api.js';
import { sandboxBlueskyAppViewRoutes } from './bluesky-appview.js';
import { sandboxTelegramRoutes } from './telegram-bot-api.js';
import { sandboxTwitterRoutes } from './twitter-api.js';
import { sandboxLinkedInRoutes } from './linkedin-api.js';
import { sandboxRedditRoutes } from './reddit-api.js';
import { sandboxPinterestRoutes } from './pinterest-api.js';
import { refuseNulInAddress } from './input-guards.js';
import { slowAnswers } from './slow-answers.js';
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

export function sandboxNetworkRoutes(deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  // Only this module's paths: other sandbox parts (consent page, media host) share the /sandbox prefix.
  for (const path of ['/xrpc/*', '/net/*', '/telegram/*', '/feed', '/profile/*', '/facebook/*', '/instagram/*', '/threads/*', '/youtube/*', '/tiktok/*', '/twitter/*', '/linkedin/*', '/reddit/*', '/pinterest/*', '/gmb/*', '/snapchat/*', '/oauth/*']) routes.use(path, refuseNulInAddress(), slowAnswers());
  routes.route('/', sandboxPdsRoutes(deps));
  routes.route('/', sandboxBlueskyAppViewRoutes(deps));
  routes.route('/net', sandboxRefreshSwitchRoutes(deps));
  routes.route('/net', sandboxEngagementApi(deps));
  routes.route('/net', genericSandboxApi(deps));
  routes.route('/telegram', sandboxTelegramRoutes(deps));
  routes.route('/facebook', sandboxFacebookRoutes(deps));
  routes.route('/instagram', sandboxInstagramRoutes(deps));
  routes.route('/threads', sandboxThreadsRoutes(deps));
  routes.route('/youtube', sandboxYoutubeEngagementRoutes(deps));
  routes.route('/youtube', sandboxYoutubeRoutes(deps));
  routes.route('/tiktok', sandboxTiktokEngagementRoutes(deps));
  routes.route('/tiktok', sandboxTiktokRoutes(deps));
  routes.route('/twitter', sandboxTwitterEngagementRoutes(deps));
  routes.route('/twitter', sandboxTwitterRoutes(deps));
  routes.route('/linkedin', sandboxLinkedInEngagementRoutes(deps));
  routes.route('/linkedin', sandboxLinkedInRoutes(deps));
  routes.route('/reddit', sandboxRedditRoutes(deps));
  routes.route('/pinterest', sandboxPinterestRoutes(deps));
  routes.route('/gmb', sandboxGmbRoutes(deps));
  routes.route('/snapchat', sandboxSnapchatRoutes(deps));
  routes.route('/oauth', sandboxOAuthServerRoutes(deps));
  routes.route('/', sandboxFeedRoutes(deps));
  return routes;
}
