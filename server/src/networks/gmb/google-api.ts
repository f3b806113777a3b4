/**
 * @module
 * One call to a Google Business Profile API with the account's access token, through the context's guarded fetch.
 * Business Profile spreads its resources over several Google services, each on its own host
 * (`https://{service}.googleapis.com`): accounts in `mybusinessaccountmanagement` v1, locations in
 * `mybusinessbusinessinformation` v1, local posts in `mybusiness` v4. The real base is the `mybusiness` host; the
 * sandbox serves each service under `{baseUrl}/{service}`, so the same adapter code reaches both.
 */
import { fetchApiAnswer, type ApiAnswer } from '../api-answer.js';
import type { PublishContext } from '../publish-adapter.js';

export type GoogleService = 'mybusinessaccountmanagement' | 'mybusinessbusinessinformation' | 'mybusiness';
export type GoogleAnswer = ApiAnswer;

const REAL_HOST = 'mybusiness.googleapis.com';

/** `path` starts with the version (`/v4/accounts/…`). */
export function googleUrl(ctx: Pick<PublishContext, 'baseUrl'>, service: GoogleService, path: string): string {
  const base = new URL(ctx.baseUrl);
  if (base.hostname === REAL_HOST) return `https://${service}.googleapis.com${path}`;
  return `${ctx.baseUrl.replace(/\/+$/, '')}/${service}${path}`;
}

export async function callGoogle(ctx: Pick<PublishContext, 'fetch'>, token: string, method: 'GET' | 'POST' | 'DELETE', url: string, json?: unknown): Promise<GoogleAnswer> {
  const headers: Record<string, string> = { Authorization: `Bearer ${token}` };
  if (json !== undefined) headers['Content-Type'] = 'application/json';
  return fetchApiAnswer(ctx, url, { method, headers, ...(json !== undefined && { body: JSON.stringify(json) }) });
}
