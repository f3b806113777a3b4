/**
 * @module
 * One Bot API call: `POST {baseUrl}/bot<token>/<method>` with a JSON body, through the context's fetch. The URL holds
 * the bot token, so it is never logged or put in an error. No HTTP answer at all comes back as `{status: 0}`: for a
 * send, that means the outcome is unknown.
 */
import type { PublishContext } from '../publish-adapter.js';

export interface BotApiAnswer {
  /** 0 when no HTTP answer arrived. */
  status: number;
  ok: boolean;
  result: unknown;
  errorCode: number | null;
  description: string;
  retryAfterSeconds: number | null;
}

export async function callBotApi(ctx: Pick<PublishContext, 'fetch' | 'baseUrl'>, botToken: string, method: string, payload: unknown): Promise<BotApiAnswer> {
  const url = `${ctx.baseUrl.replace(/\/+$/, '')}/bot${botToken}/${method}`;
  let response: Response;
  try {
    response = await ctx.fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(payload) });
  } catch (error) {
    const message = error instanceof Error ? error.message.replaceAll(botToken, '<token>') : 'request failed';
    return { status: 0, ok: false, result: null, errorCode: null, description: message, retryAfterSeconds: null };
  }
  const json = (await response.json().catch(() => null)) as {
    ok?: unknown;
    result?: unknown;
    error_code?: unknown;
    description?: unknown;
    parameters?: { retry_after?: unknown };
  } | null;
  return {
    status: response.status,
    ok: json?.ok === true && response.ok,
    result: json?.result ?? null,
    errorCode: typeof json?.error_code === 'number' ? json.error_code : response.ok ? null : response.status,
    description: typeof json?.description === 'string' ? json.description.slice(0, 300) : `HTTP ${response.status}`,
    retryAfterSeconds: typeof json?.parameters?.retry_after === 'number' ? json.parameters.retry_after : null,
  };
}
