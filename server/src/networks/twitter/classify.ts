/**
 * @module
 * An X API error answer → the spec's codes (section 7). X answers v2 problems (`{title, detail, type, status}`)
 * and, for some account states, v1.1-style `{errors: [{code, message}]}`:
 * - 401 "Unauthorized", or 403 with error 64 (suspended) / 326 (locked) → 272: the own-credential identity cannot be
 *   verified (key mismatch, revoked token, suspended or locked account); the network's string goes in `details`;
 * - 403 "client-not-enrolled" (an app or access level X no longer serves) → 423 legacy access;
 * - 403 "…oauth1 app permissions…", or `x-access-level: read` → 417 (write permission missing), the level in `details`;
 * - 403 "duplicate content" → 137;
 * - 402 CreditsDepleted → 416, never retried;
 * - 429 → 364, retried after `x-rate-limit-reset`;
 * - no answer and 5xx → 111 with `retryAvailable` (connection failures); other 4xx → 111 with X's details.
 * Media endpoints: 400 about the media itself → 164.
 */
import type { PublishFailure } from '../publish-adapter.js';
import { failWith } from '../fail-with.js';
import type { XAnswer } from './x-api.js';

function text(value: unknown, max = 300): string | undefined {
  return typeof value === 'string' ? value.slice(0, max) : undefined;
}

/** X's own words for the error: `detail`, else the first v1.1 error message. */
function networkMessage(answer: XAnswer): { detail: string; legacyCode: number | null; type: string; reason: string } {
  const errors = Array.isArray(answer.json.errors) ? (answer.json.errors as Record<string, unknown>[]) : [];
  const first = errors[0] ?? {};
  return {
    detail: text(answer.json.detail) ?? text(first.message) ?? text(answer.json.title) ?? `HTTP ${answer.status}`,
    legacyCode: typeof first.code === 'number' ? first.code : null,
    type: text(answer.json.type) ?? '',
    reason: text(answer.json.reason) ?? '',
  };
}

export function classifyXError(answer: XAnswer, nowMs: number, step: 'post' | 'media' = 'post'): PublishFailure {
  const { detail, legacyCode, type, reason } = networkMessage(answer);
  const accessLevel = answer.headers.get('x-access-level');
  const details: Record<string, unknown> = { httpStatus: answer.status, network: detail, ...(accessLevel && { accessLevel }) };
  const fail = failWith(details);
  if (answer.status === 0) return fail(111, `twitter could not be reached (${answer.transportError ?? 'no answer'}); try again.`, true, { ...(answer.sent !== false && { mayHaveArrived: true }) });
  if (answer.status === 429) {
    const reset = Number(answer.headers.get('x-rate-limit-reset'));
    const retryAfterMs = Number.isFinite(reset) && reset > 0 ? Math.max(1_000, reset * 1000 - nowMs) : 15 * 60_000;
    return fail(364, 'twitter rate limit reached for this developer app; try again later.', true, { retryAfterMs });
  }
  if (answer.status === 402) return fail(416, `twitter API credits of the developer app are depleted: ${detail}`);
  if (answer.status === 401 || legacyCode === 64 || legacyCode === 326 || legacyCode === 32) {
    return fail(272, `twitter could not verify the own-credential identity (suspended, locked, or key mismatch): ${detail}`);
  }
  if (answer.status === 403) {
    if (reason === 'client-not-enrolled' || /client-forbidden/.test(type)) return fail(423, `Legacy twitter access is no longer supported: ${detail}`);
    if (accessLevel === 'read' || /oauth1 app permissions|permission/i.test(detail)) {
      return fail(417, `The twitter access token lacks write permission (access level ${accessLevel ?? 'unknown'}). Give the app read and write permission and link the account again.`);
    }
    if (/duplicate content/i.test(detail)) return fail(137, `twitter refused duplicate content: ${detail}`);
    return fail(111, `twitter rejected the post: ${detail}`);
  }
  if (answer.status >= 500) return fail(111, `twitter had a server error (HTTP ${answer.status}); try again.`, true);
  if (step === 'media' && answer.status === 400) return fail(164, `twitter could not take the media: ${detail}`);
  return fail(111, `twitter rejected the post: ${detail}`);
}
