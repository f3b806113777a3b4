/**
 * @module
 * What stored provider tokens say of themselves: when the access token ends (`obtainedAt` + `expiresIn`, as the
 * link and the refresher store them) and which scopes were granted (`scope`, space or comma separated).
 */
import type { TokenFacts } from './health-recorder.js';

export function tokenFacts(tokens: Record<string, unknown> | null): TokenFacts | null {
  if (!tokens) return null;
  const { expiresIn, obtainedAt, scope } = tokens;
  const known = typeof expiresIn === 'number' && typeof obtainedAt === 'number';
  return {
    expiresAt: known ? obtainedAt + expiresIn * 1000 : null,
    lifetimeMs: known ? expiresIn * 1000 : null,
    scope: typeof scope === 'string' ? scope : null,
  };
}

export function scopeList(scope: string | null): string[] | null {
  return scope === null ? null : scope.split(/[\s,]+/).filter(Boolean);
}

/** The needed scopes the grant lacks; empty when the network did not say what it granted. */
export function missingScopes(granted: string[] | null, needed: readonly string[]): string[] {
  if (granted === null) return [];
  return needed.filter((scope) => !granted.includes(scope));
}
