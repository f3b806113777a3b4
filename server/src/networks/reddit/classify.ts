/**
 * @module
 * reddit answers → the spec's codes. Writes answer 200 with `json.errors: [[CODE, message, field]]`:
 * - SUBREDDIT_NOTALLOWED / BANNED_FROM_SUBREDDIT / USER_BANNED ("you aren't allowed to post there") → 442, no retry;
 * - SUBMIT_VALIDATION_TITLE_BLACKLISTED_STRING (a word the community disallows in titles) → 443, edit the title;
 * - RATELIMIT ("take a break for N minutes") → 429, retried after N minutes;
 * - other codes (SUBREDDIT_NOEXIST, TOO_LONG, NO_TEXT, BAD_URL…) → 101 with reddit's message and field.
 * HTTP: 401 → relink; 403 → 442 (a private or banned community refuses the account); 429 → retry (x-ratelimit-reset
 * seconds); 5xx and no answer → 500, retried.
 */
import type { PublishFailure } from '../publish-adapter.js';
import { failWith } from '../fail-with.js';
import { redditErrors, type RedditAnswer } from './reddit-api.js';

export function classifyRedditError(answer: RedditAnswer): PublishFailure {
  const fail = failWith();
  if (answer.status === 0) return fail(500, `reddit could not be reached (${answer.transportError ?? 'no answer'}); try again.`, true, { ...(answer.sent !== false && { mayHaveArrived: true }) });
  const [first] = redditErrors(answer);
  if (first) {
    const [code, message, field] = first;
    const details = { network: code, message, ...(field && { field }) };
    if (/^(SUBREDDIT_NOTALLOWED|BANNED_FROM_SUBREDDIT|USER_BANNED|SUBREDDIT_NO_ACCESS)$/.test(code)) return fail(442, `The account is banned from this reddit community: ${message}`, false, { details });
    if (/TITLE_BLACKLISTED_STRING|TITLE_BANNED/.test(code)) return fail(443, `The reddit title contains a word this community disallows: ${message}`, false, { details });
    if (code === 'RATELIMIT') {
      const minutes = Number(/(\d+)\s*minute/.exec(message)?.[1] ?? NaN);
      const seconds = Number(/(\d+)\s*second/.exec(message)?.[1] ?? NaN);
      const retryAfterMs = Number.isFinite(minutes) ? minutes * 60_000 : Number.isFinite(seconds) ? seconds * 1000 : 10 * 60_000;
      return fail(429, `reddit asked to wait before posting again: ${message}`, true, { retryAfterMs, details });
    }
    return fail(101, `reddit refused the post: ${message}${field ? ` (${field})` : ''}`, false, { details });
  }
  const details = { httpStatus: answer.status };
  if (answer.status === 401) return fail(401, 'reddit refused the access token; link the account again.', false, { relink: true, details });
  if (answer.status === 403) return fail(442, 'reddit refused the account in this community (banned or private).', false, { details });
  if (answer.status === 429) {
    const reset = Number(answer.headers.get('x-ratelimit-reset'));
    return fail(429, 'reddit rate limit reached; try again later.', true, { retryAfterMs: Number.isFinite(reset) && reset > 0 ? reset * 1000 : 60_000, details });
  }
  if (answer.status >= 500) return fail(500, `reddit had a server error (HTTP ${answer.status}); try again.`, true, { details });
  return fail(101, `reddit refused the request (HTTP ${answer.status}).`, false, { details });
}
