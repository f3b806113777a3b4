/**
 * @module
 * The sandbox as one identity authority: every sandbox network user is made here, by the consent screen, a bluesky
 * sign-up or `POST /api/sandbox/accounts`, and gets its tokens here. So an account linked through a screen and one
 * made by the shortcut are the same kind of thing: a user of its own (id and handle unique per network), and tokens
 * that network issued for that user only (another network refuses them, as a real one would).
 */
import { createHash, randomBytes } from 'node:crypto';
import { NETWORK_LABELS, type Network } from '@social-link-kit/protocol';
import { issueSandboxToken } from './sandbox-tokens.js';
import type { SandboxNetworkStore, SandboxUser } from './store.js';
import { sandboxTwitterTokenSecret } from './twitter-api.js';
import { META_NETWORKS } from './meta-tokens.js';

/** How long an access token of the sandbox OAuth networks lives (refreshing gives a new one). */
export const SANDBOX_ACCESS_TOKEN_TTL_S = 3600;
/**
 * Networks whose refresh token ends a fixed time after the user's consent (a rotated one keeps that end, so the user
 * must authorize again yearly), and the field their token answers give its remaining seconds in.
 */
export const SANDBOX_REFRESH_LIFETIME: Partial<Record<string, { seconds: number; field: 'refresh_expires_in' | 'refresh_token_expires_in' }>> = {
  tiktok: { seconds: 365 * 86_400, field: 'refresh_expires_in' },
  linkedin: { seconds: 365 * 86_400, field: 'refresh_token_expires_in' },
};

/** The answer's field for a refresh token ending at `expiresAt` (nothing for networks whose refresh tokens do not end). */
export function refreshExpiryField(platform: string, expiresAt: number | null, now: number): Record<string, number> {
  const lifetime = SANDBOX_REFRESH_LIFETIME[platform];
  return lifetime && expiresAt !== null ? { [lifetime.field]: Math.max(0, Math.floor((expiresAt - now) / 1000)) } : {};
}

/** instagram's `account_type` values. */
export const INSTAGRAM_ACCOUNT_TYPES = ['BUSINESS', 'MEDIA_CREATOR', 'PERSONAL'] as const;
const HANDLE = /^[a-z0-9][a-z0-9_.-]{2,252}$/;

/** A handle as the networks write them: lower case letters, digits, `_`, `.` and `-`, 3-253 characters (bluesky's are domain names). */
export function isSandboxHandle(value: unknown): value is string {
  return typeof value === 'string' && HANDLE.test(value);
}

/** A fresh handle nobody has chosen (`sandbox_<network>_<8 hex>`), for the consent screen and the shortcut. */
export function newSandboxHandle(platform: Network): string {
  return platform === 'bluesky' ? `sandbox-${randomBytes(4).toString('hex')}.bsky.social` : `sandbox_${platform}_${randomBytes(4).toString('hex')}`;
}

/** The network's id for a user: a DID on bluesky (from the handle, as stable as a PLC DID), otherwise an opaque id. */
function newAccountId(platform: Network, handle: string): string {
  if (platform === 'bluesky') return `did:plc:${createHash('sha256').update(`sandbox|${handle}`).digest('hex').slice(0, 24)}`;
  return `sandbox-${platform}-${randomBytes(6).toString('hex')}`;
}

export const appPasswordHash = (handle: string, password: string) => createHash('sha256').update(`sandbox-app-password|${handle}|${password}`).digest('hex');

/**
 * Makes a new user of `platform` with `handle`; null when the handle is taken on that network. `details` is what
 * the network will report of the user (instagram `accountType`, threads `geoEligible`).
 */
export async function createSandboxUser(
  store: SandboxNetworkStore,
  platform: Network,
  input: { handle: string; appPassword?: string; details?: Record<string, unknown> },
  now: number,
): Promise<SandboxUser | null> {
  const user: SandboxUser = {
    platform,
    accountId: newAccountId(platform, input.handle),
    handle: input.handle,
    displayName: platform === 'bluesky' ? input.handle : `Sandbox ${NETWORK_LABELS[platform]} account (${input.handle})`,
    passwordHash: input.appPassword === undefined ? null : appPasswordHash(input.handle, input.appPassword),
    details: { ...(platform === 'instagram' && { accountType: 'BUSINESS' }), ...input.details },
  };
  return (await store.insertUser(user, now)) ? user : null;
}

/** A new user with a fresh handle (the shortcut, and a consent screen left at its suggested handle). */
export async function createSandboxUserWithNewHandle(
  store: SandboxNetworkStore,
  platform: Network,
  input: { appPassword?: string; details?: Record<string, unknown> },
  now: number,
): Promise<SandboxUser> {
  for (;;) {
    const user = await createSandboxUser(store, platform, { ...input, handle: newSandboxHandle(platform) }, now);
    if (user) return user;
  }
}

export interface SandboxOAuthTokens {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number | null;
  /** Not for Meta's networks (facebook, instagram, threads). */
  refresh_token?: string;
  scope: string;
  /** tiktok: the refresh token's remaining seconds (linkedin: `refresh_token_expires_in`). */
  refresh_expires_in?: number;
  refresh_token_expires_in?: number;
  /** twitter: the user's OAuth 1.0a token and secret, what every X call is signed with (spec 5.6). */
  oauth_token?: string;
  oauth_token_secret?: string;
}

/**
 * The tokens an OAuth network issues `user` on a code exchange or the shortcut: an access token (an hour of the
 * service clock, or no expiry), a rotating refresh token (ending a year after consent on tiktok and linkedin), and twitter's OAuth 1.0a pair, which does not expire.
 */
export async function issueUserTokens(store: SandboxNetworkStore, user: SandboxUser, scope: string, now: number, accessTtlS: number | null): Promise<SandboxOAuthTokens> {
  const { platform, accountId, handle } = user;
  const access = await issueSandboxToken(store, { platform, accountId, handle, kind: 'access', ttlMs: accessTtlS === null ? null : accessTtlS * 1000 }, now);
  const tokens: SandboxOAuthTokens = { access_token: access, token_type: 'Bearer', expires_in: accessTtlS, scope };
  // A Meta login gives no refresh token: its token is traded for a long-lived one instead (meta-tokens.ts).
  if (!META_NETWORKS.has(platform)) {
    const refreshLifetime = SANDBOX_REFRESH_LIFETIME[platform];
    const refreshEnd = refreshLifetime ? now + refreshLifetime.seconds * 1000 : null;
    tokens.refresh_token = await issueSandboxToken(store, { platform, accountId, handle, kind: 'refresh', ttlMs: refreshEnd === null ? null : refreshEnd - now }, now);
    Object.assign(tokens, refreshExpiryField(platform, refreshEnd, now));
  }
  if (platform === 'twitter') {
    const oauthToken = await issueSandboxToken(store, { platform, accountId, handle, kind: 'access', ttlMs: null }, now);
    tokens.oauth_token = oauthToken;
    tokens.oauth_token_secret = sandboxTwitterTokenSecret(oauthToken);
  }
  return tokens;
}
