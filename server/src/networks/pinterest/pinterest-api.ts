/**
 * @module
 * One Pinterest API v5 call (`{baseUrl}/v5/…`: api.pinterest.com, or the sandbox) with the member's bearer token,
 * JSON bodies, through the context's guarded fetch. Errors are `{code, message}`; no answer → `{status: 0}`.
 */
import type { PublishContext } from '../publish-adapter.js';
import { fetchApiAnswer, type ApiAnswer } from '../api-answer.js';

export type PinterestAnswer = ApiAnswer;

export async function callPinterest(
  ctx: Pick<PublishContext, 'fetch' | 'baseUrl'>,
  token: string,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  json?: unknown,
): Promise<PinterestAnswer> {
  const headers: Record<string, string> = { Authorization: `Bearer ${token}` };
  if (json !== undefined) headers['Content-Type'] = 'application/json';
  return fetchApiAnswer(ctx, `${ctx.baseUrl.replace(/\/+$/, '')}${path}`, { method, headers, ...(json !== undefined && { body: JSON.stringify(json) }) });
}
