/**
 * @module
 * The delivery log integrators read (production too): every kept delivery of the profile's webhooks with its
 * attempts, and redelivery of one (the same event id and body, one more attempt now, signed afresh).
 * - `GET  /api/hook/webhook/deliveries?action=&limit=` → `{status, refId, deliveries: [...]}`, newest first
 * - `POST /api/hook/webhook/deliveries/{id}/redeliver` → `{status, refId, delivery}`; 404 code 101 for an id the
 *   profile does not have, 400 code 101 when its action has no registration any more.
 */
import { ErrorCode, type WebhookDeliveriesQuery, type WebhookDeliveryRecord, type WebhookAction } from '@social-link-kit/protocol';
import { iso } from '../core/clock.js';
import type { AppDeps } from '../app-deps.js';
import { ApiError, badRequest } from '../core/errors.js';
import type { Profile } from '../core/db/storage-types.js';
import type { WebhookLogEntry } from './store.js';
import { WEBHOOK_ACTION } from './registration-request.js';

const DEFAULT_LIMIT = 50;

export async function listDeliveries(deps: Pick<AppDeps, 'storage'>, profile: Profile, query: WebhookDeliveriesQuery): Promise<WebhookDeliveryRecord[]> {
  const entries = await deps.storage.webhooks.listDeliveryLog(profile.id, { action: query.action }, query.limit ?? DEFAULT_LIMIT);
  return entries.map(toRecord);
}

export async function redeliver(deps: Pick<AppDeps, 'storage'>, profile: Profile, id: string): Promise<WebhookDeliveryRecord> {
  const [entry] = await deps.storage.webhooks.listDeliveryLog(profile.id, { id }, 1);
  if (!entry) throw new ApiError(404, ErrorCode.badRequest, 'No delivery with this id for this profile.', { action: WEBHOOK_ACTION, details: { id } });
  const registered = await deps.storage.webhooks.listWebhooks(profile.id);
  if (!registered.some((webhook) => webhook.action === entry.action)) {
    throw badRequest(`No "${entry.action}" webhook is registered any more: register one, then redeliver.`, { id, action: entry.action }, WEBHOOK_ACTION);
  }
  await deps.storage.webhooks.redeliver(profile.id, id);
  const [after] = await deps.storage.webhooks.listDeliveryLog(profile.id, { id }, 1);
  return toRecord(after!);
}

function toRecord(entry: WebhookLogEntry): WebhookDeliveryRecord {
  const last = entry.history.at(-1) ?? null;
  return {
    id: entry.id,
    action: entry.action as WebhookAction,
    event: eventOf(entry.body),
    status: entry.deliveredAt !== null ? 'delivered' : entry.failedAt !== null ? 'failed' : 'pending',
    attempts: entry.attempts,
    responseStatus: last?.responseStatus ?? null,
    lastError: entry.lastError,
    createdAt: iso(entry.createdAt),
    lastAttemptAt: last ? iso(last.at) : null,
    nextAttemptAt: entry.nextAttemptAt === null ? null : iso(entry.nextAttemptAt),
    deliveredAt: entry.deliveredAt === null ? null : iso(entry.deliveredAt),
    failedAt: entry.failedAt === null ? null : iso(entry.failedAt),
    body: entry.body,
    attemptLog: entry.history.map((attempt) => ({ ...attempt, at: iso(attempt.at) })),
  };
}

function eventOf(body: string): string | null {
  try {
    const event = (JSON.parse(body) as { event?: unknown }).event;
    return typeof event === 'string' ? event : null;
  } catch {
    return null;
  }
}
