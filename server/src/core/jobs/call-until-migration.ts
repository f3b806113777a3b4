/** The jobs table's `call_until` (job-store.ts fence): until when a send its holder started may still be answered. */
import type { SqlDialect } from '../db/sql-dialect.js';

/** Migration 22 (renumbered at merge if taken): lease-clock ms, NULL when no call is in flight. */
export function callUntilMigration(dialect: SqlDialect): string {
  return `
  ALTER TABLE jobs ADD COLUMN call_until ${dialect.timeType};
  `;
}
