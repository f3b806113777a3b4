/**
 * @module
 * A Google API error (`{error: {code, message, errors: [{domain, reason}]}}`) or a lost connection → the spec's terms:
 * - 401 (authError, invalid or revoked token) → relink;
 * - 403 quotaExceeded / rateLimitExceeded / userRateLimitExceeded → 429, retry after Retry-After or an hour;
 * - 504 or a timeout → 453 (upload timed out) with retry; 503, 500, backendError or a reset connection that could not
 *   be resumed → 454 with retry;
 * - other 400s and 403s (invalidTitle, invalidCategoryId, forbidden…) → 101 with Google's message.
 */
import type { PublishFailure } from '../publish-adapter.js';
import { failWith } from '../fail-with.js';

export interface GoogleAnswer {
  status: number;
  reason: string | null;
  message: string;
  retryAfterSeconds: number | null;
}

export async function googleAnswerOf(response: Response): Promise<GoogleAnswer> {
  const json = (await response.json().catch(() => null)) as { error?: { message?: unknown; errors?: { reason?: unknown }[] } } | null;
  const retryAfter = Number(response.headers.get('retry-after') ?? NaN);
  return {
    status: response.status,
    reason: typeof json?.error?.errors?.[0]?.reason === 'string' ? json.error.errors[0].reason : null,
    message: typeof json?.error?.message === 'string' ? json.error.message.slice(0, 300) : `HTTP ${response.status}`,
    retryAfterSeconds: Number.isFinite(retryAfter) ? retryAfter : null,
  };
}

export function classifyYoutubeError(answer: GoogleAnswer): PublishFailure {
  const fail = failWith({ httpStatus: answer.status, ...(answer.reason && { reason: answer.reason }), networkMessage: answer.message });
  if (answer.status === 401) return fail(401, 'youtube no longer accepts the account\'s token; link the account again.', false, { relink: true });
  if (answer.status === 403 && answer.reason && /quotaExceeded|rateLimitExceeded|userRateLimitExceeded/.test(answer.reason)) {
    return fail(429, 'youtube quota or rate limit reached; try again later.', true, { retryAfterMs: (answer.retryAfterSeconds ?? 3600) * 1000 });
  }
  if (answer.status === 504 || answer.reason === 'timeout') return fail(453, 'The youtube upload timed out; try again.', true);
  // No answer: the upload's last call may have made the video (uncertain-call.ts looks before anything is retried).
  if (answer.status === 0) return fail(454, 'The youtube upload service did not answer or the connection was reset; try again.', true, { mayHaveArrived: true });
  if (answer.status >= 500 || answer.reason === 'backendError') return fail(454, 'The youtube upload service was unavailable or the connection was reset; try again.', true);
  return fail(101, `youtube refused the video: ${answer.message}`, false);
}
