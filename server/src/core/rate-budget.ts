/**
 * @module
 * Rate budgets a network sets per account over a rolling window (instagram: 50 published posts per 24 hours), kept
 * in the database so every instance of the service counts against the same budget. A use is taken before the
 * network call and given back when the call did not publish.
 */
import type { SqlDriver } from './db/sql-driver.js';
import { newId } from './tokens.js';

export type BudgetAnswer = { ok: true; useId: string } | { ok: false; retryAfterMs: number; used: number };

export interface RateBudget {
  /** Takes one use of `budget` (at most `limit` in any `windowMs`), or says how long until one frees up. */
  take(budget: string, limit: number, windowMs: number): Promise<BudgetAnswer>;
  /** Gives a use back (the call it was taken for did not publish). */
  release(useId: string): Promise<void>;
}

export function databaseRateBudget(db: SqlDriver, now: () => number): RateBudget {
  return {
    async take(budget, limit, windowMs) {
      return db.transaction(async (tx) => {
        const at = now();
        await tx.run('INSERT INTO rate_budgets (budget, touched_at) VALUES (?, ?) ON CONFLICT (budget) DO NOTHING', [budget, at]);
        // Locks the budget's row (PostgreSQL) until the transaction ends, so concurrent takers count one after another.
        await tx.run('UPDATE rate_budgets SET touched_at = ? WHERE budget = ?', [at, budget]);
        await tx.run('DELETE FROM rate_budget_uses WHERE budget = ? AND used_at <= ?', [budget, at - windowMs]);
        const uses = await tx.all('SELECT used_at FROM rate_budget_uses WHERE budget = ? ORDER BY used_at', [budget]);
        if (uses.length >= limit) {
          const oldest = Number(uses[uses.length - limit]!.used_at);
          return { ok: false, retryAfterMs: Math.max(1000, oldest + windowMs - at), used: uses.length };
        }
        const useId = newId('rbu_');
        await tx.run('INSERT INTO rate_budget_uses (id, budget, used_at) VALUES (?, ?, ?)', [useId, budget, at]);
        return { ok: true, useId };
      });
    },
    async release(useId) {
      await db.run('DELETE FROM rate_budget_uses WHERE id = ?', [useId]);
    },
  };
}
