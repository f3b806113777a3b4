/**
 * @module
 * Migration: token refresh coordination (token-refresher.ts). One row per linked account (profile, network):
 * `lease_until` is held by the one caller renewing its tokens, so concurrent jobs (in any instance) never spend the
 * same rotating refresh token twice; `relink_tokens_hash` names the sealed tokens the network refused to renew
 * (invalid_grant), so the account needs linking again until new tokens are stored.
 */
import type { SqlDialect } from '../core/db/sql-dialect.js';

export function tokenRefreshMigration(dialect: SqlDialect): string {
  const time = dialect.timeType;
  return `
  CREATE TABLE token_refreshes (
    profile_id TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
    platform TEXT NOT NULL,
    lease_until ${time},
    relink_tokens_hash TEXT,
    relink_at ${time},
    PRIMARY KEY (profile_id, platform)
  );
  `;
}
