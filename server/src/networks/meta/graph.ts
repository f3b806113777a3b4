/**
 * @module
 * The Graph API client the three Meta networks share (facebook pages at graph.facebook.com, instagram at
 * graph.facebook.com or graph.instagram.com, threads at graph.threads.net). `ctx.baseUrl` already carries the
 * version prefix (`…/v21.0`), so paths are the documented ones (`/{page-id}/feed`, `/{ig-user-id}/media`).
 * The token travels in the Authorization header, never in the URL, so it cannot end up in a log line.
 * Errors come back as the Graph error object `{error: {message, type, code, error_subcode, fbtrace_id}}`.
 */
import type { PublishContext } from '../publish-adapter.js';
import { storedAccessToken } from '../kit.js';
import { mayHaveArrived } from '../uncertain-call.js';

export interface GraphError {
  code: number;
  subcode: number | null;
  type: string | null;
  message: string;
  /** Meta's user-facing text, when it sent one. */
  userMessage: string | null;
}

export type GraphAnswer =
  | { ok: true; status: number; body: Record<string, unknown> }
  | { ok: false; status: number; error: GraphError; retryAfterSeconds: number | null; sent?: boolean };

/** Reads a Graph error object out of any JSON value; null when it is not one. */
export function graphErrorOf(json: unknown): GraphError | null {
  const error = (json as { error?: Record<string, unknown> } | null)?.error;
  if (!error || typeof error !== 'object') return null;
  return {
    code: typeof error.code === 'number' ? error.code : 1,
    subcode: typeof error.error_subcode === 'number' ? error.error_subcode : null,
    type: typeof error.type === 'string' ? error.type : null,
    message: typeof error.message === 'string' ? error.message.slice(0, 500) : 'The Graph API refused the request.',
    userMessage: typeof error.error_user_msg === 'string' ? error.error_user_msg.slice(0, 500) : null,
  };
}

/** What a Graph call needs of a publish (or analytics) context. */
export type GraphContext = Pick<PublishContext, 'account' | 'baseUrl' | 'fetch'>;

export async function accessTokenOf(ctx: GraphContext): Promise<string | null> {
  return (await storedAccessToken(ctx.account)) || null;
}

/**
 * One Graph call. GET sends `params` as the query; POST and DELETE as a JSON body. A request that got no answer is
 * reported as status 0 (code 2, Meta's "temporary" code) so callers treat it as transient.
 */
export async function callGraph(
  ctx: GraphContext,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  params: Record<string, unknown> = {},
): Promise<GraphAnswer> {
  const token = await accessTokenOf(ctx);
  if (!token) return { ok: false, status: 401, error: { code: 190, subcode: null, type: 'OAuthException', message: 'No access token is stored for the account.', userMessage: null }, retryAfterSeconds: null };
  const url = new URL(`${ctx.baseUrl.replace(/\/+$/, '')}${path}`);
  const init: RequestInit = { method, headers: { Authorization: `Bearer ${token}` } };
  if (method === 'GET') {
    for (const [key, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(key, String(value));
  } else {
    init.headers = { ...init.headers, 'Content-Type': 'application/json' };
    init.body = JSON.stringify(params);
  }
  let response: Response;
  try {
    response = await ctx.fetch(url, init);
  } catch (error) {
    const reason = error instanceof Error ? error.message.replaceAll(token, '<token>') : 'request failed';
    return { ok: false, status: 0, error: { code: 2, subcode: null, type: null, message: `No answer from the Graph API: ${reason}`, userMessage: null }, retryAfterSeconds: null, sent: mayHaveArrived(error) };
  }
  const json = (await response.json().catch(() => null)) as unknown;
  const retryAfter = Number(response.headers.get('retry-after') ?? NaN);
  const retryAfterSeconds = Number.isFinite(retryAfter) ? retryAfter : null;
  const error = graphErrorOf(json);
  if (!response.ok || error) {
    return {
      ok: false,
      status: response.status,
      error: error ?? { code: response.status >= 500 ? 2 : 1, subcode: null, type: null, message: `The Graph API answered HTTP ${response.status}.`, userMessage: null },
      retryAfterSeconds,
    };
  }
  return { ok: true, status: response.status, body: json && typeof json === 'object' ? (json as Record<string, unknown>) : {} };
}
