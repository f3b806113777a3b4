/**
 * @module
 * Pinterest v5 error answers (`{code, message}`) → the spec's codes: 401 → relink; 429 → retry (Pinterest sends no
 * Retry-After: a minute); 5xx and no answer → 500, retried; 404 for the board → 101 naming `pinterestOptions.boardId`;
 * 400 about the image or video (unreachable, wrong type, aspect ratio) → 164 (140 for the aspect ratio); other 4xx → 101.
 */
import type { PublishFailure } from '../publish-adapter.js';
import { failWith } from '../fail-with.js';
import type { PinterestAnswer } from './pinterest-api.js';

export function classifyPinterestError(answer: PinterestAnswer): PublishFailure {
  const message = typeof answer.json.message === 'string' ? answer.json.message.slice(0, 300) : `HTTP ${answer.status}`;
  const details = { httpStatus: answer.status, network: message, ...(typeof answer.json.code === 'number' && { networkCode: answer.json.code }) };
  const fail = failWith(details);
  if (answer.status === 0) return fail(500, `pinterest could not be reached (${answer.transportError ?? 'no answer'}); try again.`, true, { ...(answer.sent !== false && { mayHaveArrived: true }) });
  if (answer.status === 401) return fail(401, 'pinterest refused the access token; link the account again.', false, { relink: true });
  if (answer.status === 429) return fail(429, `pinterest rate limit reached: ${message}`, true, { retryAfterMs: 60_000 });
  if (answer.status >= 500) return fail(500, `pinterest had a server error (HTTP ${answer.status}); try again.`, true);
  if (answer.status === 404 && /board/i.test(message)) return fail(101, `pinterest has no such board: set pinterestOptions.boardId to one of the account's boards. (${message})`);
  if (/aspect ratio/i.test(message)) return fail(140, `pinterest refused the image's aspect ratio: ${message}`);
  if (/image|video|media|url/i.test(message) && answer.status === 400) return fail(164, `pinterest could not use the media: ${message}`);
  return fail(101, `pinterest refused the pin: ${message}`);
}
