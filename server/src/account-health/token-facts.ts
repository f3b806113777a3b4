/**
 * @module
 * What stored provider tokens say of themselves: when the access token ends (`obtainedAt` + `expiresIn`, as the
 * link and the refresher store them), when the refresh token ends (`refreshExpiresAt`, where the network says: tiktok,
 * linkedin) and which scopes were granted (`scope`, space or comma separated).
 * Scopes are compared by meaning, not letter: networks report the same grant differently (google answers `email`
 * as `…/auth/userinfo.email` and its own scopes as URLs; a broader scope covers narrower ones).
 */
import type { TokenFacts } from './health-recorder.js';

export function tokenFacts(tokens: Record<string, unknown> | null): TokenFacts | null {
  if (!tokens) return null;
  const { expiresIn, obtainedAt, scope, refreshExpiresAt } = tokens;
  const known = typeof expiresIn === 'number' && typeof obtainedAt === 'number';
  return {
    expiresAt: known ? obtainedAt + expiresIn * 1000 : null,
    lifetimeMs: known ? expiresIn * 1000 : null,
    scope: typeof scope === 'string' ? scope : null,
    refreshExpiresAt: typeof refreshExpiresAt === 'number' ? refreshExpiresAt : null,
  };
}

export function scopeList(scope: string | null): string[] | null {
  return scope === null ? null : scope.split(/[\s,]+/).filter(Boolean);
}

const GOOGLE_SCOPE_PREFIX = 'https://www.googleapis.com/auth/';
/** google reports the OpenID Connect scopes `email` and `profile` under these names. */
const SAME_AS: Record<string, string> = { 'userinfo.email': 'email', 'userinfo.profile': 'profile' };
/** Scopes that include others (google: managing a channel covers uploading to it and reading it). */
const COVERS: Record<string, readonly string[]> = {
  youtube: ['youtube.upload', 'youtube.readonly'],
  'youtube.force-ssl': ['youtube.upload', 'youtube.readonly'],
};

/** A scope's meaning: its name without google's URL prefix, under one name where a network has two. */
export function scopeMeaning(scope: string): string {
  const name = scope.trim().startsWith(GOOGLE_SCOPE_PREFIX) ? scope.trim().slice(GOOGLE_SCOPE_PREFIX.length) : scope.trim();
  return SAME_AS[name] ?? name;
}

/** The needed scopes the grant lacks, compared by meaning; empty when the network did not say what it granted. */
export function missingScopes(granted: string[] | null, needed: readonly string[]): string[] {
  if (granted === null) return [];
  const meanings = new Set(granted.map(scopeMeaning));
  for (const scope of [...meanings]) for (const covered of COVERS[scope] ?? []) meanings.add(covered);
  return needed.filter((scope) => !meanings.has(scopeMeaning(scope)));
}
