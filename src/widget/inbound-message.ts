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

/** Keys every message carries. */
const BASE_KEYS = ['source', 'version', 'sessionId', 'event'];

/** Keys each event may carry besides the base keys (the schemas are strict). */
const EXTRA_KEYS: Record<LinkMessage['event'], readonly string[]> = {
  'connect:ready': [],
  'connect:success': ['platform'],
  'connect:error': ['platform', 'code', 'message', 'reason'],
  'connect:cancelled': ['platform', 'reason'],
  'connect:disconnected': ['platform'],
  'connect:resize': ['height'],
};

const isString = (value: unknown, min: number, max: number): value is string =>
  typeof value === 'string' && value.length >= min && value.length <= max;

const isNetwork = (value: unknown): value is Network => WIDGET_NETWORKS.includes(value as Network);

/** Parses untrusted `MessageEvent.data` like `parseLinkMessage`; never throws. */
export function parseInboundMessage(data: unknown): LinkMessage | null {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return null;
  const m = data as Record<string, unknown>;
  const event = m.event as LinkMessage['event'];
  if (m.source !== MESSAGE_SOURCE || m.version !== PROTOCOL_VERSION || !isString(m.sessionId, 1, 64)) return null;
  if (typeof event !== 'string' || !Object.hasOwn(EXTRA_KEYS, event)) return null;
  const allowed = [...BASE_KEYS, ...EXTRA_KEYS[event]];
  if (Object.keys(m).some((key) => !allowed.includes(key))) return null;
  const platformOk = m.platform === undefined ? event !== 'connect:success' && event !== 'connect:disconnected' : isNetwork(m.platform);
  if (!platformOk) return null;
  if (event === 'connect:error') {
    if (!Number.isSafeInteger(m.code) || !isString(m.message, 0, 500)) return null;
    if (m.reason !== undefined && !isString(m.reason, 0, 64)) return null;
  }
  if (event === 'connect:resize' && !(Number.isInteger(m.height) && (m.height as number) >= 0 && (m.height as number) <= 1e4)) return null;
  if (event === 'connect:cancelled' && !WIDGET_CANCEL_REASONS.includes(m.reason as CancelReason)) return null;
  return { ...m } as LinkMessage;
}
