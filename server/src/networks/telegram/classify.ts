/**
 * @module
 * A Bot API error → the spec's terms. Section 7 has no telegram codes, so the code is the spec's generic one where
 * there is one (101) and otherwise the Bot API's `error_code` (docs/sandbox-faults.md):
 * - 429 → retry after `parameters.retry_after` (Telegram refused before sending);
 * - 403 (bot removed from the channel or not an admin) and 400 "chat not found" → relink: the channel must add the
 *   bot again and be linked again;
 * - 401 → the service's bot token is wrong: an operator problem, no relink, no retry;
 * - 500 → retry (Telegram could not process it); 502/503/504 and no answer → the message may have been sent:
 *   outcome unknown, never retried automatically (a blind retry could post it twice);
 * - other 400s → 101 with Telegram's description.
 */
import type { PublishFailure } from '../publish-adapter.js';
import { failWith } from '../fail-with.js';
import type { BotApiAnswer } from './bot-api.js';

export function outcomeUnknown(reason: string): PublishFailure {
  return {
    kind: 'failed',
    code: 500,
    message: `Telegram did not confirm the message (${reason}); it may have been sent. Check the channel before retrying.`,
    retryAvailable: false,
    relink: false,
    details: { outcome: 'unknown' },
  };
}

export function classifyTelegramError(answer: BotApiAnswer): PublishFailure {
  const details = { errorCode: answer.errorCode, description: answer.description };
  const fail = failWith(details);
  if (answer.status === 0) return outcomeUnknown(answer.description);
  const code = answer.errorCode ?? answer.status;
  if (code === 429) return fail(429, 'Telegram rate limit reached; try again later.', true, { retryAfterMs: (answer.retryAfterSeconds ?? 30) * 1000 });
  if (code === 403) return fail(403, `Telegram refused the bot: ${answer.description}. Add the bot to the channel as an admin and link it again.`, false, { relink: true });
  if (code === 401) return fail(401, 'Telegram refused the service bot token; the operator must fix TELEGRAM_BOT_TOKEN.', false);
  if (code === 400 && /chat not found|have no rights|not enough rights/i.test(answer.description)) {
    return fail(400, `Telegram: ${answer.description}. Link the channel again.`, false, { relink: true });
  }
  if (code === 500) return fail(500, 'Telegram had an internal error; try again.', true);
  if (code >= 500) return { ...outcomeUnknown(`HTTP ${code}`), details: { ...details, outcome: 'unknown' } };
  return fail(101, `Telegram refused the message: ${answer.description}`, false);
}
