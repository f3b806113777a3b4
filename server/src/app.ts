/**
 * @module
 * The link-session service as a Hono app. `server.ts` puts it on a socket; tests can also call `app.request()`.
 */
import { SandboxWebhookInbox, sandboxInboxApiRoutes, sandboxInboxReceiverRoutes } from './sandbox/webhook-inbox.js';
import { Hono } from 'hono';
import { ErrorCode } from '@social-link-kit/protocol';
import type { AppDeps, AppEnv } from './context.js';
import { ApiError } from './core/errors.js';
import { answerForError } from './core/http/error-answer.js';
import { commonHeaders } from './core/http/common-headers.js';
import { bodyCeiling } from './core/limits/body-ceiling.js';
import { apiKeyAuth } from './accounts/api-key-auth.js';
import { linkTokenAuth } from './linking/link-token-auth.js';
import { linkRoutes } from './linking/routes/hosted-api.js';
import { linkSessionRoutes } from './linking/routes/link-sessions.js';
import { profileRoutes } from './accounts/routes.js';
import { unlinkRoutes, userRoutes } from './linking/routes/linked-accounts.js';
import { webhookRoutes } from './webhooks/routes.js';
import { integrationKeyRoutes } from './linking/legacy-jwt/integration-key-routes.js';
import { generateJwtRoutes } from './linking/legacy-jwt/generate-jwt-routes.js';
import { connectRoutes } from './linking/routes/connect.js';
import { telegramWebhookRoutes } from './networks/telegram/webhook-routes.js';
import { tiktokWebhookRoutes } from './networks/tiktok/webhook-routes.js';
import { sandboxTelegramBotRoutes } from './sandbox/telegram-bot-routes.js';
import { widgetBundleRoutes } from './linking/routes/widget-bundle.js';
import { hostedPageRoutes } from './linking/routes/hosted-page.js';
import { oauthCallbackRoutes } from './linking/routes/oauth-callback.js';
import { sandboxConsentRoutes } from './sandbox/consent-routes.js';
import { accessLog } from './core/observability/access-log.js';
import { healthRoutes, metricsRoute } from './core/observability/operations-routes.js';
import { adminRoutes } from './accounts/admin/admin-routes.js';
import { openApiRoutes } from './core/openapi/openapi-routes.js';
import { sandboxNetworkRoutes } from './sandbox/networks/routes.js';
import { sandboxAccountRoutes, sandboxFeedUrlRoutes } from './sandbox/networks/accounts-route.js';
import { postRoutes } from './publishing/routes.js';
import { youtubeChannelRoutes } from './networks/youtube/channel-routes.js';
import { mediaFileRoutes } from './publishing/media/media-file-routes.js';
import { mediaRoutes } from './publishing/media/media-routes.js';
import { sandboxMediaRoutes } from './sandbox/media/sandbox-media-routes.js';
import { shortLinkRoutes } from './publishing/short-links.js';
import { createAnalytics } from './analytics/analytics.js';
import { analyticsRoutes } from './analytics/routes.js';
import { commentRoutes } from './comments/routes.js';
import { moderationRoutes } from './moderation/routes.js';
import { automationRoutes } from './automations/routes.js';
import { networkStatusRoutes, profileHealthRoutes } from './account-health/routes.js';

export function createApp(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  // Request id, JSON access line (route pattern only: paths and query strings can hold secrets), metrics.
  app.use('*', accessLog(deps));
  // Headers set before next() go into the response as it is built; set after it, they make Hono copy the finished
  // response into a streamed one (twice the CPU of a small JSON answer).
  app.use('*', async (c, next) => {
    const headers = commonHeaders(c.req.path);
    for (const name in headers) c.header(name, headers[name]);
    await next();
  });
  app.use('*', bodyCeiling());

  app.route('/', healthRoutes(deps));
  if (deps.metrics && deps.config.observability.metricsPort === null) app.route('/metrics', metricsRoute(deps.metrics, deps.config.admin.adminToken));
  if (deps.config.admin.adminToken) app.route('/admin/api', adminRoutes(deps, deps.config.admin.adminToken));

  const api = new Hono<AppEnv>();
  api.use('/profiles/*', apiKeyAuth(deps));
  api.use('/profiles', apiKeyAuth(deps));
  api.use('/user', apiKeyAuth(deps));
  api.use('/hook/*', apiKeyAuth(deps));
  api.use('/link/*', linkTokenAuth(deps));
  // The sandbox (fake networks, their consent page and test switches) exists only when it is on: in production
  // only when SANDBOX_NETWORKS names it. Off, every /sandbox and /api/sandbox address is a plain 404.
  const sandboxOn = deps.networks.sandboxOn;
  if (sandboxOn) api.use('/sandbox/*', apiKeyAuth(deps));
  api.route('/profiles/link-sessions', linkSessionRoutes(deps));
  api.route('/profiles/social', unlinkRoutes(deps));
  api.route('/profiles/integration-key', integrationKeyRoutes(deps));
  api.route('/profiles/generateJWT', generateJwtRoutes(deps));
  api.route('/profiles/health', profileHealthRoutes(deps));
  api.use('/networks/status', apiKeyAuth(deps));
  api.route('/networks/status', networkStatusRoutes(deps));
  api.route('/profiles', profileRoutes(deps));
  api.route('/user', userRoutes(deps));
  api.route('/link', linkRoutes(deps));
  api.route('/link', connectRoutes(deps));
  api.route('/hook/webhook', webhookRoutes(deps));
  if (deps.media) {
    api.use('/media/*', apiKeyAuth(deps));
    api.route('/media', mediaRoutes({ media: deps.media, config: deps.config }));
    app.route('/media', mediaFileRoutes({ media: deps.media, clock: deps.clock }));
  }
  if (deps.publishing) {
    for (const path of ['/post', '/post/*', '/history', '/validate/*', '/capacity']) api.use(path, apiKeyAuth(deps));
    api.route('/', postRoutes(deps, deps.publishing));
    app.route('/s', shortLinkRoutes(deps.publishing.store.db));
    const analytics = createAnalytics({ ...deps, refresher: deps.publishing.tokenRefresher });
    for (const path of ['/analytics/*', '/comments/*', '/automations/*']) api.use(path, apiKeyAuth(deps));
    api.route('/analytics', analyticsRoutes(deps, deps.publishing, analytics));
    api.route('/comments', commentRoutes(deps, deps.publishing, analytics));
    api.route('/', youtubeChannelRoutes(deps, analytics.contextDeps));
    api.route('/validate/moderation', moderationRoutes(deps));
    api.use('/automations', apiKeyAuth(deps));
    api.route('/automations', automationRoutes(deps, deps.publishing));
  }
  const inbox = sandboxOn ? new SandboxWebhookInbox() : null;
  if (inbox) {
    api.route('/sandbox/accounts', sandboxAccountRoutes(deps));
    api.route('/sandbox/feed-url', sandboxFeedUrlRoutes(deps));
    api.route('/sandbox/webhook-inbox', sandboxInboxApiRoutes(deps, inbox));
  }
  app.route('/api', openApiRoutes(deps));
  app.route('/api', api);
  app.route('/connect', oauthCallbackRoutes(deps));
  if (inbox) {
    app.route('/sandbox/webhook-inbox', sandboxInboxReceiverRoutes(deps, inbox));
    app.route('/sandbox', sandboxConsentRoutes(deps));
    app.route('/sandbox/media', sandboxMediaRoutes());
    app.route('/sandbox', sandboxNetworkRoutes(deps));
  }
  app.route('/webhooks/telegram', telegramWebhookRoutes(deps));
  if (deps.publishing) app.route('/webhooks/tiktok', tiktokWebhookRoutes(deps, deps.publishing));
  if (deps.networks.runsOnSandbox('telegram')) app.route('/sandbox', sandboxTelegramBotRoutes(deps));
  app.route('/widget', widgetBundleRoutes({ dataDir: deps.config.dataDir }));
  // `/link` and `/link/` both serve the page (the linking URL has no trailing slash).
  app.route('/link', hostedPageRoutes(deps));

  app.notFound((c) => {
    const error = new ApiError(404, ErrorCode.badRequest, `No route for ${c.req.method} ${c.req.path}.`);
    return c.json(error.toEnvelope(), error.status);
  });
  app.onError((error, c) => {
    const answer = answerForError(error, deps.log, { method: c.req.method, route: c.req.routePath, requestId: c.get('requestId') });
    return c.json(answer.envelope, answer.status, answer.headers);
  });
  return app;
}
