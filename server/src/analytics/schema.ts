/**
 * @module
 * Migration: stored analytics. `analytics_snapshots` keeps every successful answer (a post's metrics by network
 * post id, or an account's under subject `account`), so a later failure can be filled or recovered from it and the
 * demo can draw metrics over time. The sandbox's comments gain an author and the comment they answer.
 */
import type { SqlDialect } from '../core/db/sql-dialect.js';

export function analyticsMigration(dialect: SqlDialect): string {
  const time = dialect.timeType;
  return `
  CREATE TABLE analytics_snapshots (
    id TEXT PRIMARY KEY,
    profile_id TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
    platform TEXT NOT NULL,
    subject TEXT NOT NULL,
    metrics TEXT NOT NULL,
    extra TEXT,
    taken_at ${time} NOT NULL
  );
  CREATE INDEX analytics_snapshots_subject ON analytics_snapshots(profile_id, platform, subject, taken_at);
  ALTER TABLE sandbox_comments ADD COLUMN author TEXT;
  ALTER TABLE sandbox_comments ADD COLUMN reply_to TEXT;
  `;
}
