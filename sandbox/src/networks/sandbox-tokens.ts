/**
 * @module
 * The tokens the sandbox networks issue and accept. A sandbox network keeps only their SHA-256 (sandbox_tokens),
 * like any token store. bluesky access tokens are JWT-shaped with an `exp` claim, as a PDS's are, so a client can
 * see when to refresh; their signature part is random and the sandbox checks them by hash, not by signature.
 * Every token names its network and its user (sandbox-users.ts): whether it was issued on a consent screen's code
 * exchange or by the accounts shortcut, a network accepts only its own and it opens only its own user's account.
 */
import type { Storage } from '@social-link-kit/server/sandbox-host.js';
import { hashSecret, newSecret } from '@social-link-kit/server/sandbox-kit.js';
import { SandboxNetworkStore, type SandboxTokenKind } from './store.js';

export function sandboxStoreOf(storage: Storage): SandboxNetworkStore {
  return new SandboxNetworkStore(storage.driver);
}

export interface IssueTokenInput {
  platform: string;
  accountId: string;
  kind: SandboxTokenKind;
  handle?: string | null;
  /** Null = no expiry. */
  ttlMs: number | null;
  /** Makes the token JWT-shaped with `sub` and `exp` (bluesky). */
  jwtShaped?: boolean;
}

export async function issueSandboxToken(store: SandboxNetworkStore, input: IssueTokenInput, now: number): Promise<string> {
  const expiresAt = input.ttlMs === null ? null : now + input.ttlMs;
  let token = newSecret({ access: 'sbx_at_', refresh: 'sbx_rt_', login: 'sbx_login_', feed: 'sbx_feed_', inbox: 'sbx_inbox_' }[input.kind]);
  if (input.jwtShaped) {
    const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const claims = {
      scope: input.kind === 'access' ? 'com.atproto.access' : 'com.atproto.refresh',
      sub: input.accountId,
      iat: Math.floor(now / 1000),
      ...(expiresAt !== null && { exp: Math.floor(expiresAt / 1000) }),
      jti: newSecret(),
    };
    token = `${part({ typ: input.kind === 'access' ? 'at+jwt' : 'refresh+jwt', alg: 'HS256' })}.${part(claims)}.${newSecret()}`;
  }
  await store.putToken(hashSecret(token), { platform: input.platform, accountId: input.accountId, kind: input.kind, handle: input.handle ?? null, expiresAt, usedAt: null }, now);
  return token;
}

export type BearerCheck =
  | { ok: true; accountId: string; handle: string | null; tokenHash: string; expiresAt: number | null }
  | { ok: false; reason: 'missing' | 'invalid' | 'expired' };

/** A token this sandbox issued for `platform` and `kind`, unexpired by the service clock. */
export async function checkSandboxToken(
  store: SandboxNetworkStore,
  token: string | null,
  platform: string,
  kind: SandboxTokenKind,
  now: number,
): Promise<BearerCheck> {
  if (!token) return { ok: false, reason: 'missing' };
  const tokenHash = hashSecret(token);
  const found = await store.findToken(tokenHash);
  if (!found || found.platform !== platform || found.kind !== kind) return { ok: false, reason: 'invalid' };
  if (found.expiresAt !== null && found.expiresAt <= now) return { ok: false, reason: 'expired' };
  return { ok: true, accountId: found.accountId, handle: found.handle, tokenHash, expiresAt: found.expiresAt };
}

export function bearerOf(header: string | undefined): string | null {
  return /^Bearer\s+(\S{1,4096})$/i.exec(header ?? '')?.[1] ?? null;
}
