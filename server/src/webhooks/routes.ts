/**
 * @module
 * Webhook registrations (spec 2.5, 4.5), with the API key; `Profile-Key` picks the user profile, otherwise the
 * Primary Profile's registrations are used. Every operation needs the Premium, Launch, Business or Enterprise
 * plan (403, code 104). One registration per (profile, action); registering again replaces it.
 * - `POST   /api/hook/webhook` `{action, url, secret?}` → `{status, action, url, refId}`
 * - `GET    /api/hook/webhook` → `{status, refId, webhooks: [{action, url, hasSecret, createdAt}]}` (secrets are never returned)
 * - `DELETE /api/hook/webhook` `{action}` → `{status, action, refId, removed}` (200 even when nothing was registered)
 * - `GET    /api/hook/webhook/deliveries?action=&limit=` and `POST /api/hook/webhook/deliveries/{id}/redeliver`: the
 *   delivery log (delivery-log.ts)
 *
 * Only `social` events are produced by this service (see webhooks/social-event.ts and delivery-worker.ts).
 *
 * The request rules are in registration-request.ts, the registration itself in service.ts.
 */
import { Hono } from 'hono';
import type { AppDeps } from '../app-deps.js';
import type { AppEnv } from '../context.js';
import { rejectUnknownFields } from '../core/http/reject-unknown-fields.js';
import { readJsonObject } from '../core/http/read-json.js';
import { WEBHOOK_ACTION, parseAction, parseSecret, parseUrl } from './registration-request.js';
import { assertPlanHasWebhooks, describeWebhooks, registerWebhook, unregisterWebhook } from './service.js';
import { WebhookDeliveriesQuery } from '@social-link-kit/protocol';
import { requestError } from '../publishing/request-errors.js';
import { listDeliveries, redeliver } from './delivery-log.js';
import { isOwnSandboxInbox } from '@social-link-kit/sandbox';
import { describe, NOT_FOUND } from '../core/openapi/describe.js';
import { RegisterWebhookRequest, UnregisterWebhookRequest } from '@social-link-kit/protocol/api-requests.js';
import { ListWebhooksResponse, RedeliverWebhookResponse, RegisterWebhookResponse, UnregisterWebhookResponse, WebhookDeliveriesResponse } from '@social-link-kit/protocol';

export function webhookRoutes(deps: Pick<AppDeps, 'config' | 'storage' | 'clock' | 'networks' | 'tokenCipher'>): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();

  routes.use('*', async (c, next) => {
    assertPlanHasWebhooks(c.get('account'));
    await next();
  });

  routes.post('/', describe({ summary: 'Register a webhook', tag: 'Webhooks', auth: 'apiKeyAndProfileKey', origin: 'spec', request: RegisterWebhookRequest, response: RegisterWebhookResponse, name: 'RegisterWebhookResponse', errors: [104] }), async (c) => {
    const body = await readJsonObject(c, deps.config.maxBodyBytes, WEBHOOK_ACTION);
    rejectUnknownFields(body, ['action', 'url', 'secret'], WEBHOOK_ACTION);
    const action = parseAction(body.action);
    const profile = c.get('profile');
    // While the sandbox runs, the profile's own sandbox inbox (http, loopback) is allowed; nothing else private.
    const sandboxInbox = typeof body.url === 'string' && (await isOwnSandboxInbox(deps, profile, body.url));
    const url = sandboxInbox ? (body.url as string) : parseUrl(body.url, deps.config.webhooks.allowPrivateTargets);
    const secret = parseSecret(body.secret);
    await registerWebhook(deps, profile, { action, url, secret });
    return c.json({ status: 'success', action, url, refId: profile.refId });
  });

  routes.get('/', describe({ summary: 'List webhooks', tag: 'Webhooks', auth: 'apiKeyAndProfileKey', origin: 'spec', response: ListWebhooksResponse, name: 'ListWebhooksResponse', errors: [104] }), async (c) => {
    const profile = c.get('profile');
    return c.json({ status: 'success', refId: profile.refId, webhooks: await describeWebhooks(deps, profile) });
  });

  routes.delete('/', describe({ summary: 'Unregister a webhook', tag: 'Webhooks', auth: 'apiKeyAndProfileKey', origin: 'spec', request: UnregisterWebhookRequest, response: UnregisterWebhookResponse, name: 'UnregisterWebhookResponse', errors: [104] }), async (c) => {
    const body = await readJsonObject(c, deps.config.maxBodyBytes, WEBHOOK_ACTION);
    rejectUnknownFields(body, ['action'], WEBHOOK_ACTION);
    const action = parseAction(body.action);
    const profile = c.get('profile');
    const removed = await unregisterWebhook(deps, profile, action);
    return c.json({ status: 'success', action, refId: profile.refId, removed });
  });

  routes.get('/deliveries', describe({ summary: 'The delivery log, newest first: status, attempts, response codes, body', tag: 'Webhooks', auth: 'apiKeyAndProfileKey', query: WebhookDeliveriesQuery, response: WebhookDeliveriesResponse, name: 'WebhookDeliveriesResponse', errors: [104] }), async (c) => {
    const parsed = WebhookDeliveriesQuery.safeParse(c.req.query());
    if (!parsed.success) throw requestError(parsed.error, WEBHOOK_ACTION);
    const profile = c.get('profile');
    return c.json({ status: 'success', refId: profile.refId, deliveries: await listDeliveries(deps, profile, parsed.data) });
  });

  routes.post('/deliveries/:id/redeliver', describe({ summary: 'Send one delivery again now (same event id and body, fresh signature)', tag: 'Webhooks', auth: 'apiKeyAndProfileKey', response: RedeliverWebhookResponse, name: 'RedeliverWebhookResponse', errors: [104, NOT_FOUND] }), async (c) => {
    const profile = c.get('profile');
    return c.json({ status: 'success', refId: profile.refId, delivery: await redeliver(deps, profile, c.req.param('id')) });
  });

  return routes;
}
