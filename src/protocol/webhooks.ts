/**
 * @module
 * Webhooks: the actions an integrator may register (spec 2.5, 6.1) and the shapes of the API answers and
 * deliveries. Only `social` is emitted by this service
 * (link and unlink of a network account); the others are accepted so registrations made for the publishing
 * service keep working.
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

/** Body of a `social` webhook delivery; signed with `X-Signature: sha256=<hex HMAC-SHA256 of the body>`. */
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
