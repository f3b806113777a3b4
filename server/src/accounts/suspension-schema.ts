/**
 * @module
 * Migration 22: profile suspension (spec 7, code 249: "a repeat violation unlinks the account and suspends the user
 * profile"). `policy_violations` keeps each community standards block (249) of a linked account, by the account's
 * network id so an unlink and relink does not wipe the record; `profiles.suspended_at` and `suspension` (JSON: code,
 * platform, reason) mark a suspended profile until the Primary Profile lifts it (accounts/suspension.ts).
 */
import type { SqlDialect } from '../core/db/sql-dialect.js';

export function profileSuspensionMigration(dialect: SqlDialect): string {
  const time = dialect.timeType;
  return `
  ALTER TABLE profiles ADD COLUMN suspended_at ${time};
  ALTER TABLE profiles ADD COLUMN suspension TEXT;
  CREATE TABLE policy_violations (
    profile_id TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
    platform TEXT NOT NULL,
    network_user_id TEXT NOT NULL,
    post_id TEXT NOT NULL,
    code INTEGER NOT NULL,
    at ${time} NOT NULL,
    PRIMARY KEY (post_id, platform)
  );
  CREATE INDEX policy_violations_account ON policy_violations(profile_id, platform, network_user_id, at);
  `;
}
