/**
 * @module
 * Migration: account health (README "Account health"). One row per linked account (profile, network), written by
 * the health recorder (health-recorder.ts) when a renewal or identity check ends, and read by the API:
 * - `status` healthy | degraded | needs_relink | revoked; `failures` counts transient failures in a row (backoff);
 * - `problem_notified` is the status an `account.needs_relink` event was sent for (once per problem);
 * - `expiring_notified_for` is the expiry an `account.expiring` event was sent for (once per expiry).
 * `network_status_overrides` holds an operator's word on a network (network-status.ts), over the observed figures.
 * `preflight_warnings` remembers which scheduled post and network was warned about (once per post and network).
 */
import type { SqlDialect } from '../core/db/sql-dialect.js';

export function accountHealthMigration(dialect: SqlDialect): string {
  const time = dialect.timeType;
  return `
  CREATE TABLE account_health (
    profile_id TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
    platform TEXT NOT NULL,
    network_user_id TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'healthy',
    last_refreshed_at ${time},
    next_refresh_at ${time},
    token_expires_at ${time},
    last_error_code TEXT,
    last_error_message TEXT,
    last_error_at ${time},
    failures INTEGER NOT NULL DEFAULT 0,
    scopes_granted TEXT,
    problem_notified TEXT,
    expiring_notified_for ${time},
    PRIMARY KEY (profile_id, platform)
  );
  CREATE INDEX account_health_due ON account_health(next_refresh_at);
  CREATE TABLE network_status_overrides (
    platform TEXT PRIMARY KEY,
    status TEXT NOT NULL,
    message TEXT,
    set_at ${time} NOT NULL
  );
  CREATE TABLE preflight_warnings (
    post_id TEXT NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
    platform TEXT NOT NULL,
    warned_at ${time} NOT NULL,
    PRIMARY KEY (post_id, platform)
  );
  `;
}

/**
 * Migration: when the account's refresh token ends, where the network says (tiktok, linkedin: a year after consent;
 * renewing does not move it), so the sweep can send `account.expiring` before the user must consent again.
 */
export function refreshExpiryMigration(dialect: SqlDialect): string {
  return `ALTER TABLE account_health ADD COLUMN refresh_expires_at ${dialect.timeType};`;
}
