/**
 * @module
 * One LinkedIn REST call (`{baseUrl}/rest/…`) with the member's token and the versioned headers every `/rest` call
 * needs: `LinkedIn-Version: YYYYMM` (versions are sunset about a year after release, so this is bumped with the
 * adapter) and `X-Restli-Protocol-Version: 2.0.0`. Through the context's guarded fetch; no answer → `{status: 0}`.
 */
import type { PublishContext } from '../publish-adapter.js';
import { fetchApiAnswer, type ApiAnswer } from '../api-answer.js';

/** The Posts API version this adapter is written against. */
export const LINKEDIN_VERSION = '202610';

export type LinkedInAnswer = ApiAnswer;

export async function callLinkedIn(
  ctx: Pick<PublishContext, 'fetch'>,
  token: string,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  body?: { json: unknown } | { bytes: Uint8Array; contentType: string },
  extraHeaders: Record<string, string> = {},
): Promise<LinkedInAnswer> {
  const headers: Record<string, string> = {
    Authorization: `Bearer ${token}`,
    'LinkedIn-Version': LINKEDIN_VERSION,
    'X-Restli-Protocol-Version': '2.0.0',
    ...extraHeaders,
  };
  let payload: string | Uint8Array<ArrayBuffer> | undefined;
  if (body && 'json' in body) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body.json);
  } else if (body) {
    headers['Content-Type'] = body.contentType;
    payload = new Uint8Array(body.bytes); // an ArrayBuffer-backed copy, as fetch bodies are typed
  }
  return fetchApiAnswer(ctx, url, { method, headers, ...(payload !== undefined && { body: payload }) });
}
