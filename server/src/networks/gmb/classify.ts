/**
 * @module
 * Google Business Profile error answers → the spec's codes. Google answers `{error: {code, message, status,
 * details?}}` (`status` is the canonical name: INVALID_ARGUMENT, UNAUTHENTICATED, PERMISSION_DENIED, NOT_FOUND,
 * RESOURCE_EXHAUSTED, UNAVAILABLE…):
 * - "Authentication backend unavailable" (503/500) and a token refresh that failed for a while (token endpoint 5xx,
 *   `temporarily_unavailable`, no answer) → 519: retry later, the account STAYS connected (no relink);
 * - 401 UNAUTHENTICATED, a refresh answered `invalid_grant` → 401 with relink;
 * - 403 PERMISSION_DENIED → 101 (the Google account does not manage that location, or the API is not granted);
 * - 429 RESOURCE_EXHAUSTED → 429, retried after a minute (Google sends no Retry-After);
 * - other 5xx, no answer → 500, retried;
 * - 400 INVALID_ARGUMENT about media (`media`, `sourceUrl`, photo) → 164, otherwise 101 with Google's field
 *   violations in `details`.
 */
import type { PublishFailure } from '../publish-adapter.js';
import type { GoogleAnswer } from './google-api.js';

const AUTH_BACKEND_DOWN = /authentication backend unavailable|backend error.*auth|auth.*temporarily unavailable/i;

function fail(code: number, message: string, retryAvailable: boolean, details: Record<string, unknown>, extra: Partial<PublishFailure> = {}): PublishFailure {
  return { kind: 'failed', code, message, retryAvailable, relink: false, details, ...extra };
}

/** The field violations Google lists (`details[].fieldViolations` or the v4 `errorDetails`). */
function violationsOf(error: Record<string, unknown>): string[] {
  const details = Array.isArray(error.details) ? (error.details as Record<string, unknown>[]) : [];
  const out: string[] = [];
  for (const detail of details) {
    const entries = [...(Array.isArray(detail.fieldViolations) ? detail.fieldViolations : []), ...(Array.isArray(detail.errorDetails) ? detail.errorDetails : [])] as Record<string, unknown>[];
    for (const entry of entries) out.push(`${String(entry.field ?? '')}: ${String(entry.description ?? entry.message ?? '')}`.slice(0, 200));
  }
  return out.slice(0, 10);
}

export function classifyGmbError(answer: GoogleAnswer, step: 'post' | 'media' = 'post'): PublishFailure {
  const error = (answer.json.error && typeof answer.json.error === 'object' ? answer.json.error : {}) as Record<string, unknown>;
  const message = typeof error.message === 'string' ? error.message.slice(0, 300) : typeof answer.json.message === 'string' ? answer.json.message.slice(0, 300) : `HTTP ${answer.status}`;
  const status = typeof error.status === 'string' ? error.status : null;
  const violations = violationsOf(error);
  const details = { httpStatus: answer.status, network: message, ...(status && { networkStatus: status }), ...(violations.length > 0 && { violations }) };
  if (answer.status === 0) return fail(500, `gmb could not be reached (${answer.transportError ?? 'no answer'}); try again.`, true, {}, { ...(answer.sent !== false && { mayHaveArrived: true }) });
  if (answer.status >= 500 && AUTH_BACKEND_DOWN.test(message)) {
    return fail(519, 'gmb authorization is temporarily unavailable; the account stays connected, try again later.', true, details, { retryAfterMs: 60_000 });
  }
  if (answer.status >= 500) return fail(500, `gmb had a server error (HTTP ${answer.status}); try again.`, true, details);
  if (answer.status === 401) return fail(401, 'gmb refused the access token; link the account again.', false, details, { relink: true });
  if (answer.status === 429) return fail(429, `gmb rate limit reached: ${message}`, true, details, { retryAfterMs: 60_000 });
  if (answer.status === 403) return fail(101, `gmb refused the request (the Google account may not manage this business, or Business Profile access is not granted): ${message}`, false, details);
  if (answer.status === 404) return fail(186, `gmb has no such post or location: ${message}`, false, details);
  if (step === 'media' || /media|sourceUrl|photo/i.test(`${message} ${violations.join(' ')}`)) return fail(164, `gmb could not use the media: ${message}`, false, details);
  return fail(101, `gmb refused the post: ${message}`, false, details);
}

/** A refused token refresh at Google's token endpoint (`grant_type=refresh_token`). */
export function classifyGmbRefresh(status: number, body: Record<string, unknown>): PublishFailure {
  const error = typeof body.error === 'string' ? body.error : '';
  const description = typeof body.error_description === 'string' ? body.error_description.slice(0, 300) : '';
  const details = { httpStatus: status, network: `${error} ${description}`.trim() };
  if (status === 0 || status >= 500 || error === 'temporarily_unavailable' || error === 'server_error') {
    return fail(519, 'gmb authorization refresh is temporarily unavailable; the account stays connected, try again later.', true, details, { retryAfterMs: 60_000 });
  }
  // invalid_grant: the refresh token was revoked or expired (or the user removed the app's access).
  return fail(401, 'The gmb refresh token is no longer valid; link the account again.', false, details, { relink: true });
}
