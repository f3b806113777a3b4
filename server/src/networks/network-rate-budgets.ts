/**
 * @module
 * The networks' own publishing limits (each module's `limits.rateBudgets`), counted in the database (publishing/rate-budget.ts, shared by every instance)
 * so the service stops before the network refuses. Only limits with published numbers (publishing-anchors.md section
 * 4); instagram's 50 posts per 24 h stays in its adapter (code 435). Windows are rolling (a day-quota that resets at
 * a fixed hour is approximated by 24 h, which never lets more through than the network would).
 * `scope` `account`: per linked account (a creator's posts); `app`: per OAuth app or API project, shared by every
 * account of this service, so counted only for the real network (the sandbox is not a metered app).
 * When a budget is used up the attempt fails before the irreversible call with the network's code: 429 (what
 * each adapter answers for the network's own throttle) and `Retry-After` in `details`; per-minute budgets are
 * retried by the service when a unit frees up, per-day ones are left to the user (`noAutoRetry`).
 */
import type { Network } from '@social-link-kit/protocol';
import type { RateBudget } from '../core/rate-budget.js';
import { networkModule } from './index.js';
import type { NetworkBudget } from './module.js';
import type { LinkedAccountRef, PublishFailure } from './publish-adapter.js';

export const BUDGET_EXCEEDED_CODE = 429;

export type BudgetTake = { ok: true; useIds: string[] } | { ok: false; failure: PublishFailure };

/** The budgets that apply to an account: its own, plus the app's when it publishes to the real network. */
export function budgetsFor(platform: Network, account: Pick<LinkedAccountRef, 'sandbox'>): readonly NetworkBudget[] {
  return (networkModule(platform).limits.rateBudgets ?? []).filter((budget) => budget.scope === 'account' || !account.sandbox);
}

/** Takes one unit of every budget that applies, or none (units already taken are given back). */
export async function takeNetworkBudgets(rateBudget: RateBudget, platform: Network, account: Pick<LinkedAccountRef, 'accountId' | 'sandbox'>): Promise<BudgetTake> {
  const useIds: string[] = [];
  for (const budget of budgetsFor(platform, account)) {
    const key = budget.scope === 'account' ? `${platform}:${budget.name}:${account.accountId}` : `${platform}:${budget.name}:app`;
    const answer = await rateBudget.take(key, budget.limit, budget.windowMs);
    if (answer.ok) {
      useIds.push(answer.useId);
      continue;
    }
    await releaseNetworkBudgets(rateBudget, useIds);
    const retryAfter = Math.ceil(answer.retryAfterMs / 1000);
    return {
      ok: false,
      failure: {
        kind: 'failed',
        code: BUDGET_EXCEEDED_CODE,
        message: `${platform} allows ${budget.limit} ${budget.describes}; try again in ${retryAfter} seconds.`,
        retryAvailable: true,
        relink: false,
        retryAfterMs: answer.retryAfterMs,
        ...(!budget.autoRetry && { noAutoRetry: true }),
        details: { platform, retryAfter, limit: budget.limit, budget: budget.name },
      },
    };
  }
  return { ok: true, useIds };
}

/** Gives units back (the call they were taken for did not publish). */
export async function releaseNetworkBudgets(rateBudget: RateBudget, useIds: readonly string[]): Promise<void> {
  for (const useId of useIds) await rateBudget.release(useId);
}
