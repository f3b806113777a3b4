/**
 * @module
 * One XRPC call to a PDS with plain fetch through the adapter context's fetch (SSRF rules, time limits). Answers the
 * status, the parsed JSON (XRPC errors are `{error, message}`) and the headers; a request that never got an answer
 * (refused, reset, timed out) comes back as `{status: 0}` so callers decide what an unknown outcome means.
 */
import type { PublishContext } from '../publish-adapter.js';
import { mayHaveArrived } from '../uncertain-call.js';

export interface XrpcAnswer {
  /** 0 when no HTTP answer arrived. */
  status: number;
  json: Record<string, unknown>;
  headers: Headers;
  /** The XRPC error name, e.g. `ExpiredToken`, `RecordNotFound`, `RateLimitExceeded`. */
  error: string | null;
  message: string;
  /** With status 0: whether the request may have reached the network (uncertain-call.ts). */
  sent?: boolean;
}

export interface XrpcRequest {
  method: 'GET' | 'POST';
  query?: Record<string, string>;
  json?: unknown;
  bytes?: Uint8Array;
  contentType?: string;
  token?: string;
}

export async function xrpc(ctx: Pick<PublishContext, 'fetch' | 'baseUrl'>, nsid: string, request: XrpcRequest): Promise<XrpcAnswer> {
  const url = new URL(`${ctx.baseUrl.replace(/\/+$/, '')}/xrpc/${nsid}`);
  for (const [name, value] of Object.entries(request.query ?? {})) url.searchParams.set(name, value);
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (request.token) headers.Authorization = `Bearer ${request.token}`;
  let body: RequestInit['body'] | undefined;
  if (request.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(request.json);
  } else if (request.bytes) {
    headers['Content-Type'] = request.contentType ?? 'application/octet-stream';
    body = new Uint8Array(request.bytes) as Uint8Array<ArrayBuffer>;
  }
  let response: Response;
  try {
    response = await ctx.fetch(url, { method: request.method, headers, body });
  } catch (error) {
    return { status: 0, json: {}, headers: new Headers(), error: null, message: error instanceof Error ? error.message : String(error), sent: mayHaveArrived(error) };
  }
  const text = await response.text().catch(() => '');
  let json: Record<string, unknown> = {};
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) json = parsed as Record<string, unknown>;
  } catch {
    // A proxy's HTML error page: the status still says what happened.
  }
  const error = !response.ok && typeof json.error === 'string' ? json.error : null;
  const message = typeof json.message === 'string' ? json.message.slice(0, 500) : response.ok ? '' : `HTTP ${response.status}`;
  return { status: response.status, json, headers: response.headers, error, message };
}
