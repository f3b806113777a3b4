/**
 * @module
 * How the generic sandbox adapter calls the sandbox's generic API (`{base}` = `{PUBLIC_URL}/sandbox/net/{platform}`),
 * for its publish half (sandbox-publish.ts) and its engagement half (sandbox-engagement.ts): the account's access
 * token as a Bearer token, JSON in and out, and the sandbox's error answer in the spec's terms.
 */
import { failure, storedAccessToken } from './kit.js';
import type { LinkedAccountRef, PublishFailure } from './publish-adapter.js';

/** What a sandbox call needs of a publish or network context. */
export interface SandboxCallContext {
  account: Pick<LinkedAccountRef, 'tokens'>;
  baseUrl: string;
  fetch: (url: string | URL, init?: RequestInit) => Promise<Response>;
}

/** Turns the sandbox's error answer (`{error: {code, message, retryAfterSeconds?}}`) into the spec's terms. */
export async function classifySandboxError(response: Response): Promise<PublishFailure> {
  let body: { error?: { code?: unknown; message?: unknown; retryAfterSeconds?: unknown } } = {};
  try {
    body = (await response.json()) as typeof body;
  } catch {
    // A body that is not JSON: the HTTP status alone decides.
  }
  const code = typeof body.error?.code === 'number' ? body.error.code : response.status >= 500 ? 500 : response.status === 429 ? 429 : 101;
  const message = typeof body.error?.message === 'string' ? body.error.message.slice(0, 500) : `The network answered HTTP ${response.status}.`;
  const retryAfterSeconds = typeof body.error?.retryAfterSeconds === 'number' ? body.error.retryAfterSeconds : Number(response.headers.get('retry-after') ?? NaN);
  const transient = response.status >= 500 || response.status === 429;
  return failure(code, message, {
    retryAvailable: transient,
    relink: response.status === 401,
    ...(Number.isFinite(retryAfterSeconds) && { retryAfterMs: retryAfterSeconds * 1000 }),
    details: { httpStatus: response.status },
  });
}

/** The account's access token as the sandbox API takes it. */
export async function sandboxAuth(ctx: SandboxCallContext): Promise<Record<string, string>> {
  const token = await storedAccessToken(ctx.account);
  return token !== null ? { Authorization: `Bearer ${token}` } : {};
}

/** `GET {base}{path}`, or a JSON `POST` when there is a body: the answer, or the sandbox's error as a failure. */
export async function callSandbox<Answer>(ctx: SandboxCallContext, path: string, body?: unknown): Promise<Answer | PublishFailure> {
  const init: RequestInit =
    body === undefined ? { headers: await sandboxAuth(ctx) } : { method: 'POST', headers: { 'Content-Type': 'application/json', ...(await sandboxAuth(ctx)) }, body: JSON.stringify(body) };
  const response = await ctx.fetch(`${ctx.baseUrl}${path}`, init);
  if (!response.ok) return classifySandboxError(response);
  return (await response.json()) as Answer;
}
