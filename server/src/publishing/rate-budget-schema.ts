/**
 * @module
 * Migration: the shared rate budgets (rate-budget.ts). `rate_budgets` has one row per budget, locked while a use is
 * counted so two instances cannot both take the last unit; `rate_budget_uses` one row per use, pruned as it ages out.
 */
import type { SqlDialect } from '../core/db/sql-dialect.js';

export function rateBudgetMigration(dialect: SqlDialect): string {
  const time = dialect.timeType;
  return `
  CREATE TABLE rate_budgets (
    budget TEXT PRIMARY KEY,
    touched_at ${time} NOT NULL
  );
  CREATE TABLE rate_budget_uses (
    id TEXT PRIMARY KEY,
    budget TEXT NOT NULL,
    used_at ${time} NOT NULL
  );
  CREATE INDEX rate_budget_uses_budget ON rate_budget_uses(budget, used_at);
  `;
}
