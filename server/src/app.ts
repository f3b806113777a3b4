/**
 * @module
 * The link-session service as a Hono app. `server.ts` puts it on a socket; tests can also call `app.request()`.
 */
import { Hono } from 'hono';
import { sandboxRoutes } from '@social-link-kit/sandbox';
import { ErrorCode } from '@social-link-kit/protocol';
import type { AppDeps } from './app-deps.js';
import type { AppEnv } from './context.js';
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
import { telegramWebhookRoutes } from './linking/routes/telegram-webhook.js';
import { tiktokWebhookRoutes } from './publishing/routes/tiktok-callback.js';
import { widgetBundleRoutes } from './linking/routes/widget-bundle.js';
import { hostedPageRoutes } from './linking/routes/hosted-page.js';
import { oauthCallbackRoutes } from './linking/routes/oauth-callback.js';
import { accessLog } from './core/observability/access-log.js';
import { healthRoutes, metricsRoute } from './core/observability/operations-routes.js';
import { adminRoutes } from './accounts/admin/admin-routes.js';
import { openApiRoutes } from './core/openapi/openapi-routes.js';
import { operationsOf } from './core/openapi/describe.js';
import { postRoutes } from './publishing/routes.js';
import { youtubeChannelRoutes } from './publishing/routes/youtube-channel.js';
import { mediaFileRoutes } from './publishing/media/media-file-routes.js';
import { mediaRoutes } from './publishing/media/media-routes.js';
import { shortLinkRoutes } from './publishing/short-links.js';
import { analyticsRoutes } from './analytics/routes.js';
import { commentRoutes } from './comments/routes.js';
import { moderationRoutes } from './moderation/routes.js';
import { automationRoutes } from './automations/routes.js';
import { networkStatusRoutes, profileHealthRoutes } from './account-health/routes.js';
import { sandboxHostOf } from './sandbox-mount.js';

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
  // The fake networks live in their own package (@social-link-kit/sandbox); this is the one place they are mounted.
  const sandbox = deps.networks.sandboxOn ? sandboxRoutes(sandboxHostOf(deps)) : null;
  if (sandbox) api.use('/sandbox/*', apiKeyAuth(deps));
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
  if (deps.publishing && deps.analytics) {
    const { analytics } = deps;
    for (const path of ['/post', '/post/*', '/history', '/validate/*', '/capacity']) api.use(path, apiKeyAuth(deps));
    api.route('/', postRoutes(deps, deps.publishing));
    app.route('/s', shortLinkRoutes(deps.publishing.store.db));
    for (const path of ['/analytics/*', '/comments/*', '/automations/*']) api.use(path, apiKeyAuth(deps));
    api.route('/analytics', analyticsRoutes(deps, deps.publishing, analytics));
    api.route('/comments', commentRoutes(deps, deps.publishing, analytics));
    api.route('/', youtubeChannelRoutes(deps, analytics.contextDeps));
    api.route('/validate/moderation', moderationRoutes(deps));
    api.use('/automations', apiKeyAuth(deps));
    api.route('/automations', automationRoutes(deps, deps.publishing));
  }
  if (sandbox) api.route('/sandbox', sandbox.api);
  app.route('/api', openApiRoutes(deps, () => operationsOf(app.routes), sandbox !== null));
  app.route('/api', api);
  app.route('/connect', oauthCallbackRoutes(deps));
  if (sandbox) app.route('/sandbox', sandbox.site);
  app.route('/webhooks/telegram', telegramWebhookRoutes(deps));
  if (deps.publishing) app.route('/webhooks/tiktok', tiktokWebhookRoutes(deps, deps.publishing));
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
