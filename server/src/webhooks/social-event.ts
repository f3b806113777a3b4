/**
 * @module
 * The body of a `social` webhook: sent when a network account of a profile is linked or unlinked.
 * Built by the storage backends inside the transaction that makes the change, so the event and the change
 * commit together. Never carries tokens.
 *
 * ```json
 * {"id":"evt_…","action":"social","event":"link","platform":"twitter","refId":"…","title":"…",
 *  "displayName":"…","created":"2026-11-22T12:00:00.000Z"}
 * ```
 * `id` is stable across retries (also sent as `X-Webhook-Id`) so receivers can drop duplicates.
 */
import type { Network, SocialWebhookPayload } from '@social-link-kit/protocol';
import { newId } from '../core/tokens.js';

export type SocialEvent = SocialWebhookPayload;
export type SocialEventKind = SocialEvent['event'];

export interface SocialEventInput {
  event: SocialEventKind;
  platform: Network;
  refId: string;
  title: string;
  displayName: string | null;
  at: number;
}

export function newSocialEvent(input: SocialEventInput): SocialEvent {
  const event: SocialEvent = {
    id: newId('evt_'),
    action: 'social',
    event: input.event,
    platform: input.platform,
    refId: input.refId,
    title: input.title,
    created: new Date(input.at).toISOString(),
  };
  if (input.displayName) event.displayName = input.displayName;
  return event;
}
