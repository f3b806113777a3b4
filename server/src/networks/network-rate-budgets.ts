/**
 * @module
 * The networks' own publishing limits, counted in the database (publishing/rate-budget.ts, shared by every instance)
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
import type { LinkedAccountRef, PublishFailure } from './publish-adapter.js';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

export interface NetworkBudget {
  /** Stable name, part of the database key. */
  name: string;
  scope: 'account' | 'app';
  limit: number;
  windowMs: number;
  /** What the limit is, for the error message. */
  describes: string;
  /** True for short windows: the service tries again itself once a unit frees up. */
  autoRetry: boolean;
}

export const NETWORK_RATE_BUDGETS: Partial<Record<Network, readonly NetworkBudget[]>> = {
  // videos.insert costs 1,600 of the project's 10,000 daily quota units: 6 uploads a day.
  youtube: [{ name: 'uploads', scope: 'app', limit: 6, windowMs: DAY_MS, describes: 'youtube uploads per day for this API project (1,600 of 10,000 quota units each)', autoRetry: false }],
  tiktok: [
    { name: 'inits', scope: 'account', limit: 6, windowMs: MINUTE_MS, describes: 'tiktok publish requests per minute per creator', autoRetry: true },
    // Sources give 15 to 25 posts a day per creator; the lower figure is kept.
    { name: 'posts', scope: 'account', limit: 15, windowMs: DAY_MS, describes: 'tiktok posts per day per creator', autoRetry: false },
  ],
  threads: [{ name: 'posts', scope: 'account', limit: 250, windowMs: DAY_MS, describes: 'threads posts per 24 hours per profile', autoRetry: false }],
  reddit: [{ name: 'requests', scope: 'app', limit: 100, windowMs: MINUTE_MS, describes: 'reddit API requests per minute per OAuth client', autoRetry: true }],
  // 5,000 points an hour, a record creation costs 3.
  bluesky: [{ name: 'creates', scope: 'account', limit: 1_666, windowMs: HOUR_MS, describes: 'bluesky records created per hour per account', autoRetry: true }],
  telegram: [{ name: 'chat messages', scope: 'account', limit: 20, windowMs: MINUTE_MS, describes: 'telegram messages per minute to one group or channel', autoRetry: true }],
};

export const BUDGET_EXCEEDED_CODE = 429;

export type BudgetTake = { ok: true; useIds: string[] } | { ok: false; failure: PublishFailure };

/** The budgets that apply to an account: its own, plus the app's when it publishes to the real network. */
export function budgetsFor(platform: Network, account: Pick<LinkedAccountRef, 'sandbox'>): readonly NetworkBudget[] {
  return (NETWORK_RATE_BUDGETS[platform] ?? []).filter((budget) => budget.scope === 'account' || !account.sandbox);
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
