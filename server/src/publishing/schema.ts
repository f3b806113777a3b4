/**
 * @module
 * Migration 6: the publishing tables (posts, platform attempts, jobs). Filled by the publishing core.
 */
import type { SqlDialect } from '../storage/sql-dialect.js';

export function publishingMigration(dialect: SqlDialect): string {
  void dialect;
  return 'SELECT 1;';
}
