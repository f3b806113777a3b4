/**
 * @module
 * No surprise at publish time (issue 30): a network's rolling per-account budget (instagram 50 posts per 24 h, the
 * day caps of network-rate-budgets.ts) is checked when a post is scheduled, against the posts already on that
 * profile's account of the network around its due time, counted in the database (every instance sees the same
 * rows). A post that would exceed it is refused at create, naming the budget and `availableAt` (the first time a
 * unit frees up); `GET /api/capacity` reads the same numbers. Only windows of an hour or more: short per-minute
 * budgets are retried by the service itself when due. The window counted is the one ending at the due time (the
 * posts before it), so a post scheduled later than existing ones is checked exactly; one scheduled before them is
 * checked against its own past only.
 */
import { NETWORKS as NETWORK_IDS, type Network } from '@social-link-kit/protocol';
import type { SqlExecutor } from '../core/db/sql-driver.js';
import { networkModule } from '../networks/index.js';

export interface CapacityBudget {
  platform: Network;
  name: string;
  limit: number;
  windowMs: number;
  describes: string;
}

const HOUR_MS = 60 * 60_000;

/** Instagram's own 50 per 24 h (its adapter answers 435 at publish time), and every long per-account network budget. */
export const CAPACITY_BUDGETS: readonly CapacityBudget[] = [
  { platform: 'instagram', name: 'posts', limit: 50, windowMs: 24 * HOUR_MS, describes: 'instagram posts per 24 hours per account' },
  ...NETWORK_IDS.flatMap((platform) =>
    (networkModule(platform).limits.rateBudgets ?? [])
      .filter((budget) => budget.scope === 'account' && budget.windowMs >= HOUR_MS)
      .map((budget) => ({ platform, name: budget.name, limit: budget.limit, windowMs: budget.windowMs, describes: budget.describes })),
  ),
];

export interface CapacityEntry extends CapacityBudget {
  /** Posts counted in the window ending at the time asked about. */
  used: number;
  /** The first time a post fits (the time asked about when it fits already), epoch ms. */
  availableAt: number;
}

/** Each budget of `platform` as seen by a post of `profileId` due at `at`. */
export async function capacityAt(db: SqlExecutor, profileId: string, platform: Network, at: number): Promise<CapacityEntry[]> {
  const entries: CapacityEntry[] = [];
  for (const budget of CAPACITY_BUDGETS.filter((b) => b.platform === platform)) {
    const rows = await db.all(
      `SELECT effective_at FROM post_platforms WHERE profile_id = ? AND platform = ? AND status NOT IN ('error', 'deleted')
       AND effective_at > ? AND effective_at <= ? ORDER BY effective_at`,
      [profileId, platform, at - budget.windowMs, at],
    );
    const used = rows.length;
    // Full: the post fits once the oldest posts that make it full have left the window.
    const availableAt = used < budget.limit ? at : Number(rows[used - budget.limit]!.effective_at) + budget.windowMs;
    entries.push({ ...budget, used, availableAt });
  }
  return entries;
}

/** The first budget a post due at `at` would exceed, or null. */
export async function exceededBudget(db: SqlExecutor, profileId: string, platform: Network, at: number): Promise<CapacityEntry | null> {
  return (await capacityAt(db, profileId, platform, at)).find((entry) => entry.used >= entry.limit) ?? null;
}
