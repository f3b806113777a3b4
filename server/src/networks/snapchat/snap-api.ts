/**
 * @module
 * One Snap Public Profile API call (`{baseUrl}/v1/…`: the sandbox on loopback, or businessapi.snapchat.com) with the
 * account's access token, through the context's guarded fetch. Snap answers `{request_status: SUCCESS|ERROR,
 * request_id, …}`; an error carries `debug_message`, `display_message` and `error_code`.
 */
import { fetchApiAnswer, type ApiAnswer } from '../api-answer.js';
import type { PublishContext } from '../publish-adapter.js';

export type SnapAnswer = ApiAnswer;

export const snapUrl = (ctx: Pick<PublishContext, 'baseUrl'>, path: string) => `${ctx.baseUrl.replace(/\/+$/, '')}${path}`;

export async function callSnap(
  ctx: Pick<PublishContext, 'fetch'>,
  token: string,
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  body?: { json: unknown } | { form: FormData },
): Promise<SnapAnswer> {
  const headers: Record<string, string> = { Authorization: `Bearer ${token}` };
  let payload: string | FormData | undefined;
  if (body && 'json' in body) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body.json);
  } else if (body) {
    payload = body.form;
  }
  return fetchApiAnswer(ctx, url, { method, headers, ...(payload !== undefined && { body: payload }) }, 'debug_message');
}

/** Snap's answers are "successful" only when both the HTTP status and `request_status` say so. */
export const snapOk = (answer: SnapAnswer) => answer.status >= 200 && answer.status < 300 && answer.json.request_status !== 'ERROR';
