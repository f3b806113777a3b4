/**
 * @module
 * The PDS session of a linked bluesky account: the stored access token while it is fresh, otherwise
 * `com.atproto.server.refreshSession` with the refresh token. Refresh tokens rotate (the old one dies), so the new
 * pair is saved through `account.saveTokens` and also remembered in this process, keyed by the spent refresh
 * token, for an account whose stored tokens were read before the save. A refused refresh means the user must link
 * again; an empty refresh token is never stored.
 */
import { createHash } from 'node:crypto';
import type { PublishContext, PublishFailure } from '../publish-adapter.js';
import { classifyBlueskyError } from './classify.js';
import { xrpc } from './xrpc.js';

/** Refresh this long before the access token's `exp`, so a call does not race the expiry. */
const REFRESH_MARGIN_MS = 60_000;

export interface BlueskySessionTokens {
  accessJwt: string;
  refreshJwt: string;
}

const rotatedInThisProcess = new Map<string, BlueskySessionTokens>();
const digest = (token: string) => createHash('sha256').update(token).digest('hex');

/** The `exp` of a JWT-shaped token in ms, or null when it carries none (then the PDS's answer decides). */
export function accessTokenExpiry(token: string): number | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const exp = (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { exp?: unknown }).exp;
    return typeof exp === 'number' ? exp * 1000 : null;
  } catch {
    return null;
  }
}

async function storedSession(ctx: PublishContext): Promise<BlueskySessionTokens | PublishFailure> {
  const tokens = await ctx.account.tokens();
  if (typeof tokens.accessJwt !== 'string' || typeof tokens.refreshJwt !== 'string') {
    return { kind: 'failed', code: 401, message: 'No Bluesky session is stored for this account: link it again.', retryAvailable: false, relink: true };
  }
  let session: BlueskySessionTokens = { accessJwt: tokens.accessJwt, refreshJwt: tokens.refreshJwt };
  // Follow rotations this process already made (the stored copy may predate them).
  for (let next = rotatedInThisProcess.get(digest(session.refreshJwt)); next; next = rotatedInThisProcess.get(digest(session.refreshJwt))) session = next;
  return session;
}

export async function refreshBlueskySession(ctx: PublishContext, current: BlueskySessionTokens): Promise<BlueskySessionTokens | PublishFailure> {
  const answer = await xrpc(ctx, 'com.atproto.server.refreshSession', { method: 'POST', token: current.refreshJwt });
  const accessJwt = answer.json.accessJwt;
  const refreshJwt = answer.json.refreshJwt;
  if (answer.status !== 200 || typeof accessJwt !== 'string' || typeof refreshJwt !== 'string' || accessJwt === '' || refreshJwt === '') {
    if (answer.status === 400 || answer.status === 401) {
      return { kind: 'failed', code: 401, message: 'Bluesky refused to renew the session: link the account again.', retryAvailable: false, relink: true, details: { error: answer.error } };
    }
    return classifyBlueskyError(answer, ctx.now());
  }
  const next = { accessJwt, refreshJwt };
  rotatedInThisProcess.set(digest(current.refreshJwt), next);
  const stored = await ctx.account.tokens();
  await ctx.account.saveTokens?.({ ...stored, accessJwt, refreshJwt, obtainedAt: ctx.now() });
  ctx.log('bluesky.session_refreshed', { accountId: ctx.account.accountId });
  return next;
}

/** A session whose access token is valid for at least the refresh margin. */
export async function freshBlueskySession(ctx: PublishContext): Promise<BlueskySessionTokens | PublishFailure> {
  const session = await storedSession(ctx);
  if ('kind' in session) return session;
  const expiry = accessTokenExpiry(session.accessJwt);
  if (expiry !== null && expiry - REFRESH_MARGIN_MS <= ctx.now()) return refreshBlueskySession(ctx, session);
  return session;
}
