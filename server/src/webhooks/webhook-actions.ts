/**
 * @module
 * The webhook actions an integrator may register (spec 2.5, 6.1). Only `social` is emitted by this service
 * (link and unlink of a network account); the others are accepted so registrations made for the publishing
 * service keep working.
 */
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

export function isWebhookAction(value: unknown): value is WebhookAction {
  return typeof value === 'string' && (WEBHOOK_ACTIONS as readonly string[]).includes(value);
}
