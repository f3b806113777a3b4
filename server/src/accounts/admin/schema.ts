/**
 * @module
 * The operator migration (appended once to core/db/schema.ts): the account's twitter own-app credentials policy
 * (branding is migration 9's, core/db/migration-locale-branding.ts), the per-profile monthly post quota and the readiness probe's row.
 */
import type { SqlDialect } from '../../core/db/sql-dialect.js';

export function operatorMigration(dialect: SqlDialect): string {
  const time = dialect.timeType;
  return `
  -- 'own-app': twitter-bound requests must carry the integrator's own app credentials (spec 5.6, 419 otherwise);
  -- 'service-app': the service's own twitter app may be used when they are absent.
  ALTER TABLE accounts ADD COLUMN twitter_credentials_policy TEXT NOT NULL DEFAULT 'own-app';
  -- The publishing migration creates the same table; IF NOT EXISTS makes this a no-op after it.
  CREATE TABLE IF NOT EXISTS post_quotas (
    profile_id TEXT PRIMARY KEY REFERENCES profiles(id) ON DELETE CASCADE,
    monthly_post_quota INTEGER NOT NULL
  );
  -- /ready writes this one row to prove the database takes writes.
  CREATE TABLE service_probe (
    id INTEGER PRIMARY KEY,
    checked_at ${time} NOT NULL
  );
  `;
}
