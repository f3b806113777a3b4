/**
 * @module
 * One network API call's answer, read the same way by every adapter that speaks a JSON API: the status, the
 * headers (rate-limit and retry hints) and the body as an object. No HTTP answer at all comes back as `{status: 0}`
 * with the transport error; a body that is not a JSON object keeps its first 300 characters under `textField`, so a
 * classifier still sees what the network said.
 */
import type { PublishContext } from './publish-adapter.js';
import { mayHaveArrived } from './uncertain-call.js';

export interface ApiAnswer {
  /** 0 when no HTTP answer arrived. */
  status: number;
  headers: Headers;
  json: Record<string, unknown>;
  /** Set when status is 0. */
  transportError?: string;
  /** With status 0: whether the request may have reached the network (uncertain-call.ts). */
  sent?: boolean;
}

export async function fetchApiAnswer(ctx: Pick<PublishContext, 'fetch'>, url: string, init: RequestInit, textField = 'message'): Promise<ApiAnswer> {
  let response: Response;
  try {
    response = await ctx.fetch(url, init);
  } catch (error) {
    return { status: 0, headers: new Headers(), json: {}, transportError: error instanceof Error ? error.message : 'request failed', sent: mayHaveArrived(error) };
  }
  const text = await response.text().catch(() => '');
  let json: Record<string, unknown> = {};
  try {
    const parsed = text ? (JSON.parse(text) as unknown) : {};
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) json = parsed as Record<string, unknown>;
  } catch {
    json = { [textField]: text.slice(0, 300) };
  }
  return { status: response.status, headers: response.headers, json };
}
