/**
 * @module
 * A PDS's XRPC error → the spec's terms. Section 7 has no bluesky codes, so the code is the spec's generic one
 * where there is one (101 bad request, 164 media problem) and otherwise the HTTP status the PDS answered (401, 429,
 * 5xx), as docs/sandbox-faults.md lists:
 * - 401 AuthenticationRequired / InvalidToken, or a refresh refused → relink (the app password was revoked);
 * - 429 RateLimitExceeded → retry after `ratelimit-reset` (or Retry-After);
 * - 5xx and no answer → retry;
 * - 400 BlobTooLarge → 164; other 400s (InvalidRequest, a record the lexicon refuses) → 101, no retry.
 */
import type { PublishFailure } from '../publish-adapter.js';
import { failWith } from '../fail-with.js';
import type { XrpcAnswer } from './xrpc.js';

export function classifyBlueskyError(answer: XrpcAnswer, now: number): PublishFailure {
  const details = { status: answer.status, error: answer.error, message: answer.message };
  const fail = failWith(details);
  if (answer.status === 0) return fail(500, `Bluesky could not be reached: ${answer.message}`, true, { ...(answer.sent !== false && { mayHaveArrived: true }) });
  if (answer.status === 401 || answer.error === 'AuthenticationRequired' || answer.error === 'InvalidToken' || answer.error === 'AccountTakedown') {
    return fail(401, 'Bluesky refused the session: link the account again (the app password may have been revoked).', false, { relink: true });
  }
  if (answer.status === 429 || answer.error === 'RateLimitExceeded') {
    const reset = Number(answer.headers.get('ratelimit-reset'));
    const retryAfter = Number(answer.headers.get('retry-after'));
    const waitMs = Number.isFinite(reset) && reset > 0 ? Math.max(1000, reset * 1000 - now) : Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : 60_000;
    return fail(429, 'Bluesky rate limit reached; try again later.', true, { retryAfterMs: waitMs });
  }
  if (answer.status >= 500) return fail(answer.status, `Bluesky had a server error (${answer.error ?? answer.status}); try again.`, true);
  if (answer.error === 'BlobTooLarge') return fail(164, `Bluesky refused the image: ${answer.message}`, false);
  return fail(101, `Bluesky refused the post: ${answer.message || answer.error || answer.status}`, false);
}
