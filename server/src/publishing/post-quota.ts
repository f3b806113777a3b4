/**
 * @module
 * The monthly post quota (spec 7, code 106, HTTP 429): per profile, counted per UTC month (so it resets on the 1st),
 * every created post counts (failed ones too). The quota is the profile's own (`post_quotas`) or the plan's default.
 */
import { ApiError } from '../core/errors.js';
import type { Row } from '../core/db/rows.js';
import type { SqlExecutor } from '../core/db/sql-driver.js';
import type { Plan } from '../core/db/storage-types.js';

export const QUOTA_EXCEEDED = 106;

const PLAN_QUOTAS: Record<Plan, number> = { free: 20, premium: 1_000, launch: 2_000, business: 10_000, enterprise: 100_000 };

/** `2026-11` for a time in November 2026 (UTC). */
export function quotaMonth(now: number): string {
  return new Date(now).toISOString().slice(0, 7);
}

export async function monthlyQuota(db: SqlExecutor, profileId: string, plan: Plan): Promise<number> {
  const row = await db.get('SELECT monthly_post_quota FROM post_quotas WHERE profile_id = ?', [profileId]);
  return row ? Number(row.monthly_post_quota) : PLAN_QUOTAS[plan];
}

export function quotaError(quota: number): ApiError {
  return new ApiError(429, QUOTA_EXCEEDED, `The monthly post quota (${quota}) of this profile is used. It resets on the 1st of the month (UTC).`, {
    action: 'post',
    details: { monthlyPostQuota: quota },
  });
}

/**
 * The month's quota and count as two columns, `quota` and `count` (null: the plan's default, none counted yet), with
 * `quotaParams`: a statement of their own (`quotaAndCount`) or part of a post read's (post-reads.ts).
 */
export const QUOTA_COLUMNS = quotaColumnsOf('?');

/** `QUOTA_COLUMNS` for the profile a column of the statement names (post-reads.ts): bound to the month alone. */
export function quotaColumnsOf(profile: string): string {
  return `(SELECT monthly_post_quota FROM post_quotas WHERE profile_id = ${profile}) AS quota,
  (SELECT count FROM post_counts WHERE profile_id = ${profile} AND month = ?) AS count`;
}

export function quotaParams(profileId: string, now: number): unknown[] {
  return [profileId, profileId, quotaMonth(now)];
}

/** The quota and count `QUOTA_COLUMNS` read. */
export function quotaOfRow(row: Row | null, plan: Plan): { quota: number; count: number } {
  return { quota: row?.quota == null ? PLAN_QUOTAS[plan] : Number(row.quota), count: row?.count == null ? 0 : Number(row.count) };
}

/**
 * The month's quota and count in one statement: every read of a post checks them (issue 31: one statement instead
 * of two, which on PostgreSQL is one round trip instead of two).
 */
export async function quotaAndCount(db: SqlExecutor, profileId: string, plan: Plan, now: number): Promise<{ quota: number; count: number }> {
  return quotaOfRow(await db.get(`SELECT ${QUOTA_COLUMNS}`, quotaParams(profileId, now)), plan);
}

/** 106 once the month's quota is used (get, delete, retry are refused then too). */
export async function assertQuotaLeft(db: SqlExecutor, profileId: string, plan: Plan, now: number): Promise<void> {
  const { quota, count } = await quotaAndCount(db, profileId, plan, now);
  if (count >= quota) throw quotaError(quota);
}

/**
 * Counts `n` posts inside the caller's transaction, and refuses (throwing, so the transaction rolls back) when that
 * goes over the quota. One upsert: simultaneous requests each add exactly their share.
 */
export async function countPosts(tx: SqlExecutor, profileId: string, plan: Plan, n: number, now: number): Promise<void> {
  const quota = await monthlyQuota(tx, profileId, plan);
  const row = await tx.get(
    `INSERT INTO post_counts (profile_id, month, count) VALUES (?, ?, ?)
     ON CONFLICT (profile_id, month) DO UPDATE SET count = post_counts.count + excluded.count RETURNING count`,
    [profileId, quotaMonth(now), n],
  );
  if (Number(row?.count ?? 0) > quota) throw quotaError(quota);
}
