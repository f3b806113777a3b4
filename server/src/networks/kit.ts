/**
 * @module
 * The helpers every adapter shares, written once: a failure value, telling one apart from a result, and the
 * account's access token.
 */
import type { LinkedAccountRef, PublishFailure } from './publish-adapter.js';

/** A failure the network (or the adapter's own check) gave: not retried and no relink unless `extra` says so. */
export function failure(code: number, message: string, extra: Partial<PublishFailure> = {}): PublishFailure {
  return { kind: 'failed', code, message, retryAvailable: false, relink: false, ...extra };
}

export function isFailure(value: unknown): value is PublishFailure {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'failed';
}

/** The account's stored access token (under either name a link kept it), or null. */
export async function storedAccessToken(account: Pick<LinkedAccountRef, 'tokens'>): Promise<string | null> {
  const tokens = await account.tokens();
  const token = tokens.accessToken ?? tokens.access_token;
  return typeof token === 'string' ? token : null;
}

/** The access token a call sends, or the relink failure of an account that has none. */
export async function accessTokenOf(ctx: { account: Pick<LinkedAccountRef, 'platform' | 'tokens'> }): Promise<string | PublishFailure> {
  const token = await storedAccessToken(ctx.account);
  return token ? token : failure(401, `The ${ctx.account.platform} account has no access token; link it again.`, { relink: true });
}
