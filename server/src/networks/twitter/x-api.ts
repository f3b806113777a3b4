/**
 * @module
 * One X API call, signed with OAuth 1.0a (the integrator's app + the user's token), through the context's guarded
 * fetch. Bodies: JSON (`/2/tweets`), form (`/2/media/upload` INIT and FINALIZE, signed), or multipart (APPEND, not
 * signed, as OAuth 1.0a says). No HTTP answer at all comes back as `{status: 0}`. Tokens never reach a log or error.
 */
import type { PublishContext } from '../publish-adapter.js';
import { oauth1Header, type OAuth1Credentials } from './oauth1.js';

export interface XAnswer {
  /** 0 when no HTTP answer arrived. */
  status: number;
  headers: Headers;
  json: Record<string, unknown>;
  /** Set when status is 0. */
  transportError?: string;
}

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
  let response: Response;
  try {
    response = await ctx.fetch(url, { method, headers, ...(payload !== undefined && { body: payload }) });
  } catch (error) {
    return { status: 0, headers: new Headers(), json: {}, transportError: error instanceof Error ? error.message : 'request failed' };
  }
  const text = await response.text().catch(() => '');
  let json: Record<string, unknown> = {};
  try {
    const parsed = text ? (JSON.parse(text) as unknown) : {};
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) json = parsed as Record<string, unknown>;
  } catch {
    json = { detail: text.slice(0, 300) };
  }
  return { status: response.status, headers: response.headers, json };
}
