/**
 * @module
 * Validation of inbound postMessage data in the widget: a hand-written mirror of `LinkMessage` from
 * src/protocol/messages.ts. Measured: zod/mini alone costs 7.3 KB gzip for this schema and full zod more, which
 * with Lit (~6 KB) breaks the 12 KB script-tag budget; this file costs well under 1 KB.
 * The lists come from src/protocol/constants.ts (no zod behind it); test/widget/protocol-agreement.test.ts holds
 * the two parsers in step: both must give the same verdict on a corpus of valid and forged payloads.
 */
import type { CancelReason, LinkMessage } from '../protocol/messages.js';
import type { Network } from '../protocol/networks.js';
import { CANCEL_REASONS, MESSAGE_SOURCE, NETWORKS, PROTOCOL_VERSION } from '../protocol/constants.js';

/** The protocol's own lists, from its zod-free module. */
export const WIDGET_NETWORKS: readonly Network[] = NETWORKS;
export const WIDGET_CANCEL_REASONS: readonly CancelReason[] = CANCEL_REASONS;

/** A check of one field's value; an optional field's check accepts `undefined` (the key absent). */
type FieldCheck = (value: unknown) => boolean;

const text =
  (max: number, min = 0): FieldCheck =>
  (value) =>
    typeof value === 'string' && value.length >= min && value.length <= max;
const optional =
  (check: FieldCheck): FieldCheck =>
  (value) =>
    value === undefined || check(value);
const network: FieldCheck = (value) => WIDGET_NETWORKS.includes(value as Network);

/** The fields every message has (`event` is checked by the table below). */
const BASE_FIELDS: Record<string, FieldCheck> = {
  source: (value) => value === MESSAGE_SOURCE,
  version: (value) => value === PROTOCOL_VERSION,
  sessionId: text(64, 1),
  event: () => true,
};

/** Each event's own fields; a message may carry no other key (the schemas are strict). */
const EVENT_FIELDS: Record<LinkMessage['event'], Record<string, FieldCheck>> = {
  'connect:ready': {},
  'connect:success': { platform: network },
  'connect:error': { platform: optional(network), code: Number.isSafeInteger, message: text(500), reason: optional(text(64)) },
  'connect:cancelled': { platform: optional(network), reason: (value) => WIDGET_CANCEL_REASONS.includes(value as CancelReason) },
  'connect:disconnected': { platform: network },
  'connect:resize': { height: (value) => Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 1e4 },
};

/** Parses untrusted `MessageEvent.data` like `parseLinkMessage`; never throws. */
export function parseInboundMessage(data: unknown): LinkMessage | null {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return null;
  const message = data as Record<string, unknown>;
  const event = message.event;
  if (typeof event !== 'string' || !Object.hasOwn(EVENT_FIELDS, event)) return null;
  const fields = { ...BASE_FIELDS, ...EVENT_FIELDS[event as LinkMessage['event']] };
  const valid =
    Object.keys(message).every((key) => Object.hasOwn(fields, key)) &&
    Object.entries(fields).every(([key, check]) => check(message[key]));
  return valid ? ({ ...message } as LinkMessage) : null;
}
