/**
 * @module
 * One call to reddit's OAuth API (`{baseUrl}` = oauth.reddit.com, or the sandbox): `Authorization: bearer <token>`,
 * a form body for writes (`api_type=json` so errors come back as `json.errors`), and the unique User-Agent reddit
 * requires (`<platform>:<app id>:<version> (by /u/<name>)`; generic agents are throttled). Through the context's
 * guarded fetch; no answer → `{status: 0}`.
 */
import type { PublishContext } from '../publish-adapter.js';
import { fetchApiAnswer, type ApiAnswer } from '../api-answer.js';

export const REDDIT_USER_AGENT = 'server:social-link-kit:1.0 (by /u/social-link-kit)';

export type RedditAnswer = ApiAnswer;

export async function callReddit(
  ctx: Pick<PublishContext, 'fetch' | 'baseUrl'>,
  token: string,
  method: 'GET' | 'POST',
  path: string,
  form?: Record<string, string>,
): Promise<RedditAnswer> {
  const headers: Record<string, string> = { Authorization: `bearer ${token}`, 'User-Agent': REDDIT_USER_AGENT };
  let body: string | undefined;
  if (form) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams({ ...form, api_type: 'json' }).toString();
  }
  return fetchApiAnswer(ctx, `${ctx.baseUrl.replace(/\/+$/, '')}${path}`, { method, headers, ...(body !== undefined && { body }) });
}

/** `json.errors` of a write answer: `[[CODE, message, field]]`. */
export function redditErrors(answer: RedditAnswer): [string, string, string | null][] {
  const errors = (answer.json.json as { errors?: unknown } | undefined)?.errors;
  if (!Array.isArray(errors)) return [];
  return errors
    .filter((entry): entry is unknown[] => Array.isArray(entry))
    .map((entry) => [String(entry[0] ?? ''), String(entry[1] ?? '').slice(0, 300), typeof entry[2] === 'string' ? entry[2] : null]);
}
