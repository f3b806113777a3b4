/**
 * @module
 * What the three Meta sandboxes (facebook-api.ts, instagram-api.ts) share: the Graph error object
 * `{error: {message, type, code, error_subcode, fbtrace_id}}`, the Bearer check against the tokens the sandbox issued
 * for the network and account, JSON bodies, numeric ids, and the fault markers as Graph errors (docs/sandbox-faults.md).
 */
import type { SandboxEnv, SandboxHost } from '@social-link-kit/server/sandbox-host.js';
import type { Context, Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { randomBytes, randomInt } from 'node:crypto';
import { faultMarker } from './faults.js';
import { containsNul } from './input-guards.js';
import { bearerOf, checkSandboxToken, sandboxStoreOf } from './sandbox-tokens.js';
import { answerOwnErrors } from './own-errors.js';

export class GraphSandboxError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly subcode?: number,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** A Graph fault: HTTP status, Graph code, subcode. */
export interface GraphFault {
  status: number;
  code: number;
  subcode?: number;
  message: string;
  retryAfterSeconds?: number;
}

export function answerGraphErrors(routes: Hono<SandboxEnv>): void {
  answerOwnErrors(routes, GraphSandboxError, (error, c) => {
    const body = {
      error: {
        message: error.message,
        type: error.code === 190 ? 'OAuthException' : 'GraphMethodException',
        code: error.code,
        ...(error.subcode !== undefined && { error_subcode: error.subcode }),
        fbtrace_id: randomBytes(8).toString('base64url'),
      },
    };
    return c.json(body, error.status as ContentfulStatusCode, error.retryAfterSeconds ? { 'Retry-After': String(error.retryAfterSeconds) } : {});
  });
}

/** The account the Bearer token was issued for; 190 otherwise, as Graph answers. */
export async function graphAccount(deps: SandboxHost, c: Context<SandboxEnv>, platform: string): Promise<string> {
  // Graph takes `Authorization: OAuth <token>` (the hosted upload's form) as well as Bearer.
  const token = bearerOf(c.req.header('authorization')?.replace(/^OAuth\s+/i, 'Bearer '));
  const now = deps.clock();
  const check = await checkSandboxToken(sandboxStoreOf(deps.storage), token, platform, 'access', now);
  if (!check.ok) throw new GraphSandboxError(401, 190, check.reason === 'expired' ? 'Error validating access token: Session has expired.' : 'Invalid OAuth access token - Cannot parse access token');
  return check.accountId;
}

/** The account in the path must be the token's: a token opens only its own user's objects. */
export function requireOwner(tokenAccount: string, pathAccount: string): void {
  if (tokenAccount !== pathAccount) throw new GraphSandboxError(403, 200, 'Permissions error: the token does not manage this object.');
}

export async function graphBody(c: Context<SandboxEnv>): Promise<Record<string, unknown>> {
  const type = c.req.header('content-type') ?? '';
  const body = type.includes('application/json') ? ((await c.req.json().catch(() => null)) as unknown) : type ? await c.req.parseBody() : {};
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new GraphSandboxError(400, 100, 'Invalid parameter: the body must be a JSON object.');
  if (containsNul(body)) throw new GraphSandboxError(400, 100, 'Invalid parameter: NUL character.');
  return body as Record<string, unknown>;
}

export function optionalString(body: Record<string, unknown>, field: string, max: number): string | null {
  const value = body[field];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || value.length > max) throw new GraphSandboxError(400, 100, `Invalid parameter: ${field}`);
  return value;
}

export function urlParam(body: Record<string, unknown>, field: string): string {
  const value = body[field];
  if (typeof value !== 'string' || !/^https?:\/\/\S{1,2040}$/.test(value)) throw new GraphSandboxError(400, 100, `Invalid parameter: ${field} must be a URL.`);
  return value;
}

/** A Graph-like numeric id. */
export function graphId(): string {
  return `${randomInt(1, 10)}${String(randomInt(0, 2 ** 47)).padStart(15, '0')}`;
}

/** Throws the fault a marker in `text` asks for; a marker this network cannot produce is refused as code 100. */
export function throwGraphFault(network: string, faults: Record<string, GraphFault>, text: string): void {
  const marker = faultMarker(text);
  if (!marker) return;
  const fault = faults[marker];
  if (!fault) throw new GraphSandboxError(400, 100, `Sandbox: ${network} cannot produce fault ${marker} (see docs/sandbox-faults.md).`);
  throw new GraphSandboxError(fault.status, fault.code, `Sandbox fault ${marker}: ${fault.message}`, fault.subcode, fault.retryAfterSeconds);
}
