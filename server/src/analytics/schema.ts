/**
 * @module
 * Migration: stored analytics. `analytics_snapshots` keeps every successful answer (a post's metrics by network
 * post id, or an account's under subject `account`), so a later failure can be filled or recovered from it and the
 * demo can draw metrics over time. `automations` (comment-triggered private replies) and their `automation_activity`
 * (one row per automation and comment: a comment never triggers one automation twice). The sandbox's comments gain
 * an author and the comment they answer.
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
  CREATE TABLE automations (
    id TEXT PRIMARY KEY,
    profile_id TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    trigger_words TEXT NOT NULL,
    reply_text TEXT NOT NULL,
    platforms TEXT NOT NULL,
    post_id TEXT,
    paused INTEGER NOT NULL DEFAULT 0,
    created_at ${time} NOT NULL,
    updated_at ${time} NOT NULL
  );
  CREATE INDEX automations_profile ON automations(profile_id);
  CREATE TABLE automation_activity (
    id TEXT PRIMARY KEY,
    automation_id TEXT NOT NULL REFERENCES automations(id) ON DELETE CASCADE,
    platform TEXT NOT NULL,
    network_post_id TEXT NOT NULL,
    comment_id TEXT NOT NULL,
    commenter TEXT NOT NULL,
    status TEXT NOT NULL,
    action_results TEXT NOT NULL,
    created_at ${time} NOT NULL,
    UNIQUE (automation_id, platform, comment_id)
  );
  CREATE INDEX automation_activity_automation ON automation_activity(automation_id, created_at);
  ALTER TABLE sandbox_comments ADD COLUMN author TEXT;
  ALTER TABLE sandbox_comments ADD COLUMN reply_to TEXT;
  `;
}
