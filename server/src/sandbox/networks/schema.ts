/**
 * @module
 * Migration 7: the sandbox networks' own state (what each sandbox network "published"). Filled by the sandbox.
 */
import type { SqlDialect } from '../../storage/sql-dialect.js';

export function sandboxNetworksMigration(dialect: SqlDialect): string {
  void dialect;
  return 'SELECT 1;';
}
