/**
 * @module
 * Snap Public Profile API error answers (`{request_status: "ERROR", request_id, debug_message, display_message,
 * error_code}`) → the spec's codes:
 * - 401 (expired or revoked token) → 401 with relink;
 * - 403 (the app is not on the Public Profile allowlist, or the user does not manage the profile) → 101;
 * - 429 → 429, retried after a minute unless Snap sends Retry-After;
 * - 5xx, no answer → 500, retried;
 * - 400 about the media (format, size, duration, encryption, the container expired after 24 h) → 164, other 4xx → 101.
 */
import type { PublishFailure } from '../publish-adapter.js';
import { failWith } from '../fail-with.js';
import type { SnapAnswer } from './snap-api.js';

export function classifySnapError(answer: SnapAnswer, step: 'post' | 'media' = 'post'): PublishFailure {
  const json = answer.json;
  const message = String(json.debug_message ?? json.display_message ?? json.message ?? `HTTP ${answer.status}`).slice(0, 300);
  const errorCode = typeof json.error_code === 'string' ? json.error_code : null;
  const details = { httpStatus: answer.status, network: message, ...(errorCode && { networkCode: errorCode }), ...(typeof json.request_id === 'string' && { requestId: json.request_id }) };
  const fail = failWith(details);
  if (answer.status === 0) return fail(500, `snapchat could not be reached (${answer.transportError ?? 'no answer'}); try again.`, true, { ...(answer.sent !== false && { mayHaveArrived: true }) });
  if (answer.status === 401) return fail(401, 'snapchat refused the access token; link the account again.', false, { relink: true });
  if (answer.status === 429) {
    const seconds = Number(answer.headers.get('retry-after'));
    return fail(429, `snapchat rate limit reached: ${message}`, true, { retryAfterMs: Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 60_000 });
  }
  if (answer.status >= 500) return fail(500, `snapchat had a server error (HTTP ${answer.status}); try again.`, true);
  if (answer.status === 403) return fail(101, `snapchat refused the request (the app needs Public Profile API access and the user must manage the profile): ${message}`);
  if (step === 'media' || /media|encrypt|duration|resolution|file|expired/i.test(message)) return fail(164, `snapchat could not use the media: ${message}`);
  return fail(101, `snapchat refused the post: ${message}`);
}
