/**
 * @module
 * One Pinterest API v5 call (`{baseUrl}/v5/…`: api.pinterest.com, or the sandbox) with the member's bearer token,
 * JSON bodies, through the context's guarded fetch. Errors are `{code, message}`; no answer → `{status: 0}`.
 */
import type { PublishContext } from '../publish-adapter.js';

export interface PinterestAnswer {
  /** 0 when no HTTP answer arrived. */
  status: number;
  headers: Headers;
  json: Record<string, unknown>;
  transportError?: string;
}

export async function callPinterest(
  ctx: Pick<PublishContext, 'fetch' | 'baseUrl'>,
  token: string,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  json?: unknown,
): Promise<PinterestAnswer> {
  const headers: Record<string, string> = { Authorization: `Bearer ${token}` };
  if (json !== undefined) headers['Content-Type'] = 'application/json';
  let response: Response;
  try {
    response = await ctx.fetch(`${ctx.baseUrl.replace(/\/+$/, '')}${path}`, { method, headers, ...(json !== undefined && { body: JSON.stringify(json) }) });
  } catch (error) {
    return { status: 0, headers: new Headers(), json: {}, transportError: error instanceof Error ? error.message : 'request failed' };
  }
  const text = await response.text().catch(() => '');
  let parsed: Record<string, unknown> = {};
  try {
    const value = text ? (JSON.parse(text) as unknown) : {};
    if (value && typeof value === 'object' && !Array.isArray(value)) parsed = value as Record<string, unknown>;
  } catch {
    parsed = { message: text.slice(0, 300) };
  }
  return { status: response.status, headers: response.headers, json: parsed };
}
