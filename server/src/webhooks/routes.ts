/**
 * @module
 * Webhook registrations (spec 2.5, 4.5), with the API key; `Profile-Key` picks the user profile, otherwise the
 * Primary Profile's registrations are used. Every operation needs the Premium, Launch, Business or Enterprise
 * plan (403, code 104). One registration per (profile, action); registering again replaces it.
 * - `POST   /api/hook/webhook` `{action, url, secret?}` → `{status, action, url, refId}`
 * - `GET    /api/hook/webhook` → `{status, refId, webhooks: [{action, url, hasSecret, createdAt}]}` (secrets are never returned)
 * - `DELETE /api/hook/webhook` `{action}` → `{status, action, refId, removed}` (200 even when nothing was registered)
 *
 * Only `social` events are produced by this service (see webhooks/social-event.ts and delivery-worker.ts).
 *
 * The `url` must point to a public host: an IP literal in a private, loopback, link-local, … range, or a
 * `localhost` name, is refused here with 400 code 101 like any other bad `url` (webhooks/target-host.ts);
 * names are checked again after resolution at every delivery. `WEBHOOK_ALLOW_PRIVATE_TARGETS=1` lifts both.
 */
import { Hono } from 'hono';
import { ErrorCode } from '../../../src/protocol/index.js';
import { iso } from '../core/clock.js';
import type { AppDeps, AppEnv } from '../context.js';
import { ApiError, badRequest } from '../core/errors.js';
import { rejectUnknownFields } from '../core/http/reject-unknown-fields.js';
import { readJsonObject } from '../core/http/read-json.js';
import type { Account } from '../core/db/storage-types.js';
import { WEBHOOK_ACTIONS, isWebhookAction, type WebhookAction } from '../../../src/protocol/webhooks.js';
import { refuseHostBeforeLookup } from './target-host.js';
import { sealWebhookSecret } from './webhook-secret.js';

const ACTION = 'webhook';
const MAX_URL_LENGTH = 2048;
const MAX_SECRET_LENGTH = 512;
const PLANS_WITH_WEBHOOKS: readonly Account['plan'][] = ['premium', 'launch', 'business', 'enterprise'];

export function webhookRoutes(deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();

  routes.use('*', async (c, next) => {
    if (!PLANS_WITH_WEBHOOKS.includes(c.get('account').plan)) {
      throw new ApiError(403, ErrorCode.planRequired, 'Webhooks need the Premium, Launch, Business or Enterprise plan.', {
        action: ACTION,
      });
    }
    await next();
  });

  routes.post('/', async (c) => {
    const body = await readJsonObject(c, deps.config.maxBodyBytes, ACTION);
    rejectUnknownFields(body, ['action', 'url', 'secret'], ACTION);
    const action = parseAction(body.action);
    const url = parseUrl(body.url, deps.config.webhooks.allowPrivateTargets);
    const secret = parseSecret(body.secret);
    const profile = c.get('profile');
    const sealedSecret = secret === null ? null : sealWebhookSecret(deps.tokenCipher, profile.id, action, secret);
    await deps.storage.webhooks.putWebhook({ profileId: profile.id, action, url, sealedSecret, createdAt: deps.clock() });
    return c.json({ status: 'success', action, url, refId: profile.refId });
  });

  routes.get('/', async (c) => {
    const profile = c.get('profile');
    const webhooks = await deps.storage.webhooks.listWebhooks(profile.id);
    return c.json({
      status: 'success',
      refId: profile.refId,
      webhooks: webhooks.map((webhook) => ({
        action: webhook.action,
        url: webhook.url,
        hasSecret: webhook.sealedSecret !== null,
        createdAt: iso(webhook.createdAt),
      })),
    });
  });

  routes.delete('/', async (c) => {
    const body = await readJsonObject(c, deps.config.maxBodyBytes, ACTION);
    rejectUnknownFields(body, ['action'], ACTION);
    const action = parseAction(body.action);
    const profile = c.get('profile');
    const removed = await deps.storage.webhooks.deleteWebhook(profile.id, action);
    return c.json({ status: 'success', action, refId: profile.refId, removed });
  });

  return routes;
}

function parseAction(value: unknown): WebhookAction {
  if (isWebhookAction(value)) return value;
  throw badRequest(`"action" is required and must be one of: ${WEBHOOK_ACTIONS.join(', ')}.`, { validValues: WEBHOOK_ACTIONS }, ACTION);
}

function parseUrl(value: unknown, allowPrivateTargets: boolean): string {
  const invalid = () =>
    badRequest(`"url" is required: a valid URL beginning with https://, at most ${MAX_URL_LENGTH} characters.`, undefined, ACTION);
  if (typeof value !== 'string' || !value.startsWith('https://') || value.length > MAX_URL_LENGTH) throw invalid();
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid();
  }
  if (url.protocol !== 'https:' || url.hostname === '') throw invalid();
  // Credentials in the URL would be stored and sent in clear and shown back by the list: use `secret` instead.
  if (url.username !== '' || url.password !== '') {
    throw badRequest('"url" must not contain credentials (user:password@); sign deliveries with "secret" instead.', { field: 'url' }, ACTION);
  }
  const refusal = allowPrivateTargets ? null : refuseHostBeforeLookup(url.hostname);
  if (refusal) {
    throw badRequest(
      `"url" must point to a public host; ${refusal.host} is not a public address (${refusal.range}).`,
      { field: 'url', host: refusal.host, range: refusal.range },
      ACTION,
    );
  }
  return value;
}

function parseSecret(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_SECRET_LENGTH) {
    throw badRequest(`"secret" must be a string of 1 to ${MAX_SECRET_LENGTH} characters.`, undefined, ACTION);
  }
  return value;
}
