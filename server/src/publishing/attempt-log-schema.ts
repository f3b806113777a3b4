/** The per-post timeline of publish attempts (attempt-log.ts). */
import type { SqlDialect } from '../core/db/sql-dialect.js';

/** Migration 20: one row per ended attempt, read by post. */
export function attemptLogMigration(dialect: SqlDialect): string {
  const time = dialect.timeType;
  return `
  CREATE TABLE publish_attempts (
    id TEXT PRIMARY KEY,
    post_id TEXT NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
    platform TEXT NOT NULL,
    at ${time} NOT NULL,
    trigger TEXT NOT NULL,
    outcome TEXT NOT NULL,
    code INTEGER,
    message TEXT,
    retry_at ${time},
    reconcile TEXT
  );
  CREATE INDEX publish_attempts_post ON publish_attempts(post_id, at);
  `;
}
