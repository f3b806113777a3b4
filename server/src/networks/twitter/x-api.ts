/**
 * @module
 * One X API call, signed with OAuth 1.0a (the integrator's app + the user's token), through the context's guarded
 * fetch. Bodies: JSON (`/2/tweets`), form (`/2/media/upload` INIT and FINALIZE, signed), or multipart (APPEND, not
 * signed, as OAuth 1.0a says). No HTTP answer at all comes back as `{status: 0}`. Tokens never reach a log or error.
 */
import type { PublishContext } from '../publish-adapter.js';
import { oauth1Header, type OAuth1Credentials } from './oauth1.js';
import { fetchApiAnswer, type ApiAnswer } from '../api-answer.js';

export type XAnswer = ApiAnswer;

export type XBody = { json: unknown } | { form: Record<string, string> } | { multipart: FormData } | null;

export async function callX(
  ctx: Pick<PublishContext, 'fetch' | 'baseUrl' | 'now'>,
  credentials: OAuth1Credentials,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  body: XBody = null,
): Promise<XAnswer> {
  const url = `${ctx.baseUrl.replace(/\/+$/, '')}${path}`;
  const formParams = body && 'form' in body ? Object.entries(body.form) : [];
  const headers: Record<string, string> = { Authorization: oauth1Header(credentials, method, url, ctx.now(), formParams) };
  let payload: string | FormData | undefined;
  if (body && 'json' in body) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body.json);
  } else if (body && 'form' in body) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    payload = new URLSearchParams(body.form).toString();
  } else if (body && 'multipart' in body) {
    payload = body.multipart;
  }
  return fetchApiAnswer(ctx, url, { method, headers, ...(payload !== undefined && { body: payload }) }, 'detail');
}
