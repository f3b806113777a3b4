/**
 * @module
 * Applies one limit inside a route: over it, the request ends with 429, code 510 and `Retry-After`.
 */
import type { Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import { ErrorCode } from '@social-link-kit/protocol';
import type { AppDeps } from '../../app-deps.js';
import { ApiError } from '../errors.js';

const MINUTE = 60_000;
/** Connection starts count over the longest a session can live (2880 minutes). */
const SESSION_LIFETIME = 2880 * MINUTE;

export type LimitKind = 'tokenLookup' | 'sessionCreate' | 'connectStart';

/** Counts one event of `kind` for `subject`; over the limit it throws the 429 (an ApiError the app answers). */
export async function enforceLimit(deps: Pick<AppDeps, 'config' | 'clock' | 'limiter'>, kind: LimitKind, subject: string, action: string): Promise<void> {
  const { limits } = deps.config;
  const [limit, windowMs] =
    kind === 'tokenLookup'
      ? [limits.tokenLookupsPerMinute, MINUTE]
      : kind === 'sessionCreate'
        ? [limits.sessionCreatesPerMinute, MINUTE]
        : [limits.connectStartsPerSession, SESSION_LIFETIME];
  const decision = await deps.limiter.hit(`${kind}:${subject}`, limit, windowMs, deps.clock());
  if (decision.allowed) return;
  const seconds = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
  throw new ApiError(429, ErrorCode.rateLimited, `Too many requests. Try again in ${seconds} s.`, {
    action,
    details: { retryAfter: seconds },
    retryAvailable: true,
    headers: { 'Retry-After': String(seconds) },
  });
}

/** For every route that starts a connection (OAuth, bluesky, telegram): at most N starts over a session's life. */
export async function assertConnectStartAllowed(deps: Pick<AppDeps, 'config' | 'clock' | 'limiter'>, sessionId: string): Promise<void> {
  await enforceLimit(deps, 'connectStart', sessionId, 'link session');
}

/** The client address: the socket peer, or the entry `hops` proxies back in X-Forwarded-For when configured. */
export function clientAddress(c: Context, hops: number): string {
  if (hops > 0) {
    const forwarded = (c.req.header('x-forwarded-for') ?? '').split(',').map((part) => part.trim()).filter(Boolean);
    const entry = forwarded[forwarded.length - hops];
    if (entry) return entry;
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}
