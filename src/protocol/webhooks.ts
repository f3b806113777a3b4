/**
 * @module
 * Webhooks: the actions an integrator may register (spec 2.5, 6.1) and the shapes of the API answers and
 * deliveries. `social` (link and unlink of a network account) and `suspended` (a profile suspended after a repeat
 * community standards violation, and lifted) are described here; the publishing actions elsewhere.
 */
import { z } from 'zod';
import { Network } from './networks.js';

export const WEBHOOK_ACTIONS = [
  'feed',
  'social',
  'scheduled',
  'batch',
  'messages',
  'mentions',
  'comments',
  'automations',
  'suspended',
] as const;
export type WebhookAction = (typeof WEBHOOK_ACTIONS)[number];

export const WebhookAction = z.enum(WEBHOOK_ACTIONS);

/** Body of a `social` webhook delivery; signed with `X-Signature: sha256=<hex HMAC-SHA256 of the body>` and the
 * Standard Webhooks `webhook-signature` (check it with `verifyWebhook` from `social-link-kit/webhooks.js`). */
export const SocialWebhookPayload = z.object({
  id: z.string(),
  action: z.literal('social'),
  event: z.enum(['link', 'unlink']),
  platform: Network,
  refId: z.string(),
  title: z.string(),
  displayName: z.string().optional(),
  created: z.string(),
});
export type SocialWebhookPayload = z.infer<typeof SocialWebhookPayload>;

/**
 * Body of a `suspended` webhook delivery: `event` `suspended` when a repeat violation (code 249) suspended the
 * profile (its account on `platform` was unlinked in the same step, reported as a `social` `unlink`), `lifted`
 * when the Primary Profile lifted it.
 */
export const SuspendedWebhookPayload = z.object({
  id: z.string(),
  action: z.literal('suspended'),
  event: z.enum(['suspended', 'lifted']),
  refId: z.string(),
  title: z.string(),
  code: z.number().int().optional(),
  platform: Network.optional(),
  reason: z.string().optional(),
  created: z.string(),
});
export type SuspendedWebhookPayload = z.infer<typeof SuspendedWebhookPayload>;

export const RegisterWebhookResponse = z.object({
  status: z.literal('success'),
  action: WebhookAction,
  url: z.string(),
  refId: z.string(),
});
export type RegisterWebhookResponse = z.infer<typeof RegisterWebhookResponse>;

export const ListWebhooksResponse = z.object({
  status: z.literal('success'),
  refId: z.string(),
  webhooks: z.array(z.object({ action: WebhookAction, url: z.string(), hasSecret: z.boolean(), createdAt: z.string() })),
});
export type ListWebhooksResponse = z.infer<typeof ListWebhooksResponse>;

export const UnregisterWebhookResponse = z.object({
  status: z.literal('success'),
  action: WebhookAction,
  refId: z.string(),
  removed: z.boolean(),
});
export type UnregisterWebhookResponse = z.infer<typeof UnregisterWebhookResponse>;

export function isWebhookAction(value: unknown): value is WebhookAction {
  return typeof value === 'string' && (WEBHOOK_ACTIONS as readonly string[]).includes(value);
}

/** `GET /api/hook/webhook/deliveries` query: `action` (one webhook of the profile; all when absent), `limit` (default 50). */
export const WebhookDeliveriesQuery = z.strictObject({
  action: WebhookAction.optional(),
  limit: z
    .string()
    .regex(/^\d{1,4}$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().int().min(1).max(500))
    .optional(),
});
export type WebhookDeliveriesQuery = z.infer<typeof WebhookDeliveriesQuery>;

/** One attempt of a delivery: the receiver's HTTP status (null: no answer) and what went wrong. */
export const WebhookDeliveryAttempt = z.object({
  attempt: z.number().int(),
  at: z.string(),
  responseStatus: z.number().int().nullable(),
  error: z.string().nullable(),
});
export type WebhookDeliveryAttempt = z.infer<typeof WebhookDeliveryAttempt>;

/** One delivery in the log: `id` is the event id (`webhook-id`), the same on every attempt and redelivery. */
export const WebhookDeliveryRecord = z.object({
  id: z.string(),
  action: WebhookAction,
  /** The payload's `event` (e.g. `link`), null when it has none. */
  event: z.string().nullable(),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number().int(),
  /** The last attempt's HTTP status, null before any attempt or when the receiver gave no answer. */
  responseStatus: z.number().int().nullable(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  lastAttemptAt: z.string().nullable(),
  /** When the next attempt is due; null once finished, or when it is due at once. */
  nextAttemptAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  failedAt: z.string().nullable(),
  /** The body exactly as sent and signed. */
  body: z.string(),
  attemptLog: z.array(WebhookDeliveryAttempt),
});
export type WebhookDeliveryRecord = z.infer<typeof WebhookDeliveryRecord>;

export const WebhookDeliveriesResponse = z.object({
  status: z.literal('success'),
  refId: z.string(),
  deliveries: z.array(WebhookDeliveryRecord),
});
export type WebhookDeliveriesResponse = z.infer<typeof WebhookDeliveriesResponse>;

export const RedeliverWebhookResponse = z.object({
  status: z.literal('success'),
  refId: z.string(),
  delivery: WebhookDeliveryRecord,
});
export type RedeliverWebhookResponse = z.infer<typeof RedeliverWebhookResponse>;

/** `POST /api/sandbox/webhook-inbox`: the profile's sandbox inbox address (it holds a key: treat it as a password). */
export const SandboxWebhookInboxUrlResponse = z.object({ status: z.literal('success'), url: z.string() });
export type SandboxWebhookInboxUrlResponse = z.infer<typeof SandboxWebhookInboxUrlResponse>;

/** One request the sandbox inbox received, with the Standard Webhooks signature checked against the registration. */
export const SandboxInboxDelivery = z.object({
  /** The `webhook-id` header (the event id), null when absent. */
  id: z.string().nullable(),
  action: z.string().nullable(),
  receivedAt: z.string(),
  headers: z.record(z.string(), z.string()),
  body: z.string(),
  signature: z.object({
    /** `unsigned`: the registration has no secret (or no longer exists); `invalid`: see `reason`. */
    status: z.enum(['valid', 'invalid', 'unsigned']),
    reason: z.string().nullable(),
  }),
});
export type SandboxInboxDelivery = z.infer<typeof SandboxInboxDelivery>;

/** `GET /api/sandbox/webhook-inbox`: what the profile's inbox received, newest first (the last 50). */
export const SandboxWebhookInboxResponse = z.object({
  status: z.literal('success'),
  refId: z.string(),
  deliveries: z.array(SandboxInboxDelivery),
});
export type SandboxWebhookInboxResponse = z.infer<typeof SandboxWebhookInboxResponse>;
