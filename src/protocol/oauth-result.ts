/**
 * @module
 * The message the OAuth popup's result page (`/connect/result.js`) posts to the hosted page that opened it, on
 * the service's own origin only. It never carries tokens: the service has already stored the account, and the
 * hosted page confirms by reading the session. `zod/mini`, like ./hosted-api.ts, for the hosted page's budget.
 */
import { z } from 'zod/mini';
import { CANCEL_REASONS, MESSAGE_SOURCE, OAUTH_RESULT_EVENT, PROTOCOL_VERSION } from './constants.js';
import { ErrorCode } from './error-codes.js';
import { NETWORKS } from './networks/catalog.js';

export { OAUTH_RESULT_EVENT };

const base = {
  source: z.literal(MESSAGE_SOURCE),
  version: z.literal(PROTOCOL_VERSION),
  event: z.literal(OAUTH_RESULT_EVENT),
  /** Absent when the callback could not tell which network it was for. */
  platform: z.optional(z.enum(NETWORKS)),
};

export const OAuthResultMessage = z.discriminatedUnion('outcome', [
  z.object({ ...base, outcome: z.literal('success') }),
  z.object({ ...base, outcome: z.literal('cancelled'), reason: z._default(z.enum(CANCEL_REASONS), 'denied') }),
  z.object({
    ...base,
    outcome: z.literal('error'),
    code: z._default(z.int(), ErrorCode.connectFailed),
    message: z._default(z.string().check(z.maxLength(500)), ''),
  }),
]);
/** What the hosted page works with after parsing (defaults filled in). */
export type OAuthResultMessage = z.output<typeof OAuthResultMessage>;
/** What the result page sends. */
export type OAuthResultMessageInput = z.input<typeof OAuthResultMessage>;

/** Parses untrusted `MessageEvent.data`; never throws. */
export function parseOAuthResultMessage(data: unknown): OAuthResultMessage | null {
  const result = OAuthResultMessage.safeParse(data);
  return result.success ? result.data : null;
}
