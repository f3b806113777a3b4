/**
 * @module
 * Media's share of migration 6 (P1's publishing migration appends it). Media needs no table today: converted
 * files are stored content-addressed under `DATA_DIR/media` (media-store.ts) and their URLs are signed and carry
 * their own expiry, so nothing about them has to be looked up. Kept as the place where media tables go.
 */
import type { SqlDialect } from '../../core/db/sql-dialect.js';

export function mediaTables(_dialect: SqlDialect): string {
  return '';
}
