/**
 * @module
 * LinkedIn error answers → the spec's codes. LinkedIn answers `{status, serviceErrorCode?, code?, message}`:
 * - no answer, 500/502/503/504 → 119 (connection issue, safe to retry later);
 * - 401 (INVALID/EXPIRED/REVOKED_ACCESS_TOKEN, serviceErrorCode 65600-65602) → 401 with relink;
 * - 422 "Content is a duplicate of urn:li:share:…" → 137;
 * - 429 TOO_MANY_REQUESTS → 429, retried (LinkedIn sends no Retry-After: an hour by default, daily limits reset at
 *   midnight UTC);
 * - 426 NONEXISTENT_VERSION → 503 for the operator (the adapter's LinkedIn-Version was sunset), not retried;
 * - analytics (member post analytics) 403 ACCESS_DENIED → 475: a personal profile linked before the member
 *   analytics scopes existed must be relinked;
 * - a token refresh refused because of the application's configuration (refresh tokens are only for approved
 *   partners: `unauthorized_client` / "not allowed"…) → 524, no retry, no relink;
 * - other 4xx → 101 with LinkedIn's message.
 */
import type { PublishFailure } from '../publish-adapter.js';
import { failWith } from '../fail-with.js';
import type { LinkedInAnswer } from './rest-api.js';

export function classifyLinkedInError(answer: LinkedInAnswer, step: 'post' | 'media' | 'analytics' = 'post'): PublishFailure {
  const message = typeof answer.json.message === 'string' ? answer.json.message.slice(0, 300) : `HTTP ${answer.status}`;
  const serviceErrorCode = typeof answer.json.serviceErrorCode === 'number' ? answer.json.serviceErrorCode : null;
  const code = typeof answer.json.code === 'string' ? answer.json.code : null;
  const details = { httpStatus: answer.status, network: message, ...(serviceErrorCode !== null && { serviceErrorCode }), ...(code && { networkCode: code }) };
  const fail = failWith(details);
  if (answer.status === 0) return fail(119, `linkedin could not be reached (${answer.transportError ?? 'no answer'}); safe to retry later.`, true, { ...(answer.sent !== false && { mayHaveArrived: true }) });
  if (answer.status >= 500) return fail(119, `linkedin connection issue (HTTP ${answer.status}); safe to retry later.`, true);
  if (answer.status === 401) return fail(401, `linkedin refused the access token (${code ?? message}); link the account again.`, false, { relink: true });
  if (answer.status === 429) return fail(429, `linkedin rate limit reached: ${message}`, true, { retryAfterMs: 60 * 60_000 });
  if (answer.status === 426) return fail(503, `linkedin no longer serves this API version (${message}); the service must be updated.`);
  if (answer.status === 403 && step === 'analytics') {
    return fail(475, 'This personal linkedin profile was linked before member analytics existed; link it again to read its analytics.', false, { relink: true });
  }
  if (answer.status === 422 && /duplicate/i.test(message)) return fail(137, `linkedin refused duplicate content: ${message}`);
  if (answer.status === 403) return fail(101, `linkedin refused the request: ${message}`);
  if (step === 'media') return fail(164, `linkedin could not take the media: ${message}`);
  return fail(101, `linkedin refused the post: ${message}`);
}

/** A refused token refresh (`POST /oauth/v2/accessToken`, grant_type=refresh_token). */
export function classifyLinkedInRefresh(status: number, body: Record<string, unknown>): PublishFailure {
  const error = typeof body.error === 'string' ? body.error : '';
  const description = typeof body.error_description === 'string' ? body.error_description.slice(0, 300) : '';
  const details = { httpStatus: status, network: `${error} ${description}`.trim() };
  if (status === 0 || status >= 500) return { kind: 'failed', code: 119, message: 'linkedin could not refresh the token right now; safe to retry later.', retryAvailable: true, relink: false, details };
  if (error === 'unauthorized_client' || /not (allowed|authorized|enabled)|programmatic refresh/i.test(description)) {
    return { kind: 'failed', code: 524, message: 'linkedin rejected the token refresh because of the application configuration.', retryAvailable: false, relink: false, details };
  }
  // invalid_grant: the refresh token expired or was revoked: the member must link again.
  return { kind: 'failed', code: 401, message: 'The linkedin refresh token is no longer valid; link the account again.', retryAvailable: false, relink: true, details };
}
