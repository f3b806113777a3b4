/**
 * @module
 * The postMessage protocol between the hosted linking page and the integrator's page (DESIGN.md step 5).
 * Every envelope carries `source` and `version` so stray messages from other scripts are easy to ignore.
 * Payloads never carry the session token, provider tokens or secrets.
 */
import { z } from 'zod';
import { Network } from './networks.js';

import { CANCEL_REASONS, MESSAGE_SOURCE, PROTOCOL_VERSION } from './constants.js';

export { MESSAGE_SOURCE, PROTOCOL_VERSION };

export { CANCEL_REASONS };
export const CancelReason = z.enum(CANCEL_REASONS);
export type CancelReason = z.infer<typeof CancelReason>;

const base = {
  source: z.literal(MESSAGE_SOURCE),
  version: z.literal(PROTOCOL_VERSION),
  sessionId: z.string().min(1).max(64),
};

/** The hosted page has loaded the session and shows the linking UI. Not an outcome. */
export const ReadyMessage = z.strictObject({ ...base, event: z.literal('connect:ready') });
export type ReadyMessage = z.infer<typeof ReadyMessage>;

/** An account was stored for `platform`. Sent only after the server committed it. */
export const SuccessMessage = z.strictObject({
  ...base,
  event: z.literal('connect:success'),
  platform: Network,
});
export type SuccessMessage = z.infer<typeof SuccessMessage>;

/** A connection attempt failed, with the spec's numeric code. */
export const ErrorMessage = z.strictObject({
  ...base,
  event: z.literal('connect:error'),
  platform: Network.optional(),
  code: z.number().int(),
  message: z.string().max(500),
  reason: z.string().max(64).optional(),
});
export type ErrorMessage = z.infer<typeof ErrorMessage>;

/** The user left without linking (closed, escaped, denied) or the link stopped being usable. */
export const CancelledMessage = z.strictObject({
  ...base,
  event: z.literal('connect:cancelled'),
  platform: Network.optional(),
  reason: CancelReason,
});
export type CancelledMessage = z.infer<typeof CancelledMessage>;

/**
 * The user disconnected `platform`'s account on the hosted page (added in the same protocol version: a widget
 * that does not know it ignores it). Integrator pages refresh the accounts they show.
 */
export const DisconnectedMessage = z.strictObject({
  ...base,
  event: z.literal('connect:disconnected'),
  platform: Network,
});
export type DisconnectedMessage = z.infer<typeof DisconnectedMessage>;

/** Frame mode: the height the hosted page's content needs, in CSS pixels, so the dialog fits it. Not an outcome. */
export const ResizeMessage = z.strictObject({
  ...base,
  event: z.literal('connect:resize'),
  height: z.number().int().min(0).max(10000),
});
export type ResizeMessage = z.infer<typeof ResizeMessage>;

export const LinkMessage = z.discriminatedUnion('event', [ReadyMessage, SuccessMessage, ErrorMessage, CancelledMessage, DisconnectedMessage, ResizeMessage]);
export type LinkMessage = z.infer<typeof LinkMessage>;
export type OutcomeMessage = SuccessMessage | ErrorMessage | CancelledMessage;

/** Parses untrusted `MessageEvent.data`; never throws. */
export function parseLinkMessage(data: unknown): LinkMessage | null {
  const result = LinkMessage.safeParse(data);
  return result.success ? result.data : null;
}
