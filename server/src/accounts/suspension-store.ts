/**
 * @module
 * The SQL of profile suspension (migration 22, suspension-schema.ts): community standards blocks of linked
 * accounts, and the suspension mark on a profile. The rules are in suspension.ts.
 */
import type { Network, ProfileSuspension } from '@social-link-kit/protocol';
import { iso } from '../core/clock.js';
import type { SqlExecutor } from '../core/db/sql-driver.js';
import { toSocialAccount } from '../core/db/rows.js';
import type { Plan, SocialAccount } from '../core/db/storage-types.js';

/** What `profiles.suspension` holds (the time is its own column). */
export type SuspensionCause = Omit<ProfileSuspension, 'since'>;

export interface Violation {
  profileId: string;
  platform: Network;
  networkUserId: string;
  postId: string;
  code: number;
  at: number;
}

/** The network id of the profile's account on `platform` now, or null when none is linked. */
export async function linkedAccountId(db: SqlExecutor, profileId: string, platform: Network): Promise<string | null> {
  const row = await db.get('SELECT network_user_id FROM social_accounts WHERE profile_id = ? AND platform = ?', [profileId, platform]);
  return row ? (row.network_user_id as string) : null;
}

/** False when this post's block was recorded already (a result recorded again after a reconcile). */
export async function insertViolation(db: SqlExecutor, violation: Violation): Promise<boolean> {
  const { profileId, platform, networkUserId, postId, code, at } = violation;
  const inserted = await db.run(
    `INSERT INTO policy_violations (profile_id, platform, network_user_id, post_id, code, at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (post_id, platform) DO NOTHING`,
    [profileId, platform, networkUserId, postId, code, at],
  );
  return inserted > 0;
}

/** Blocks of the same account (profile, network, network id) with `code` since `since`, other than `postId`'s. */
export async function countEarlierViolations(db: SqlExecutor, violation: Violation, since: number): Promise<number> {
  const row = await db.get(
    `SELECT COUNT(*) AS n FROM policy_violations
     WHERE profile_id = ? AND platform = ? AND network_user_id = ? AND code = ? AND at >= ? AND post_id <> ?`,
    [violation.profileId, violation.platform, violation.networkUserId, violation.code, since, violation.postId],
  );
  return Number(row?.n ?? 0);
}

/** Marks the profile suspended; false when it already was (the first cause stays). */
export async function markSuspended(db: SqlExecutor, profileId: string, cause: SuspensionCause, at: number): Promise<boolean> {
  const changed = await db.run('UPDATE profiles SET suspended_at = ?, suspension = ? WHERE id = ? AND suspended_at IS NULL', [at, JSON.stringify(cause), profileId]);
  return changed > 0;
}

/** Clears the mark; false when the profile was not suspended. */
export async function clearSuspension(db: SqlExecutor, profileId: string): Promise<boolean> {
  const changed = await db.run('UPDATE profiles SET suspended_at = NULL, suspension = NULL WHERE id = ? AND suspended_at IS NOT NULL', [profileId]);
  return changed > 0;
}

function suspensionOfRow(row: Record<string, unknown>): ProfileSuspension | null {
  if (row.suspended_at === null || row.suspended_at === undefined) return null;
  const cause = JSON.parse(String(row.suspension)) as SuspensionCause;
  return { since: iso(Number(row.suspended_at)), ...cause };
}

export async function findSuspension(db: SqlExecutor, profileId: string): Promise<ProfileSuspension | null> {
  const row = await db.get('SELECT suspended_at, suspension FROM profiles WHERE id = ?', [profileId]);
  return row ? suspensionOfRow(row) : null;
}

/** The profile's suspension and its linked accounts by network, in one read (a post's create, issue 31). */
export async function findSuspensionAndSocialAccounts(db: SqlExecutor, profileId: string): Promise<{ suspension: ProfileSuspension | null; linked: Map<Network, SocialAccount> }> {
  const rows = await db.all('SELECT p.suspended_at, p.suspension, s.* FROM profiles p LEFT JOIN social_accounts s ON s.profile_id = p.id WHERE p.id = ?', [profileId]);
  const linked = new Map(rows.filter((row) => row.platform !== null && row.platform !== undefined).map((row) => [row.platform as Network, toSocialAccount(row)]));
  return { suspension: rows[0] ? suspensionOfRow(rows[0]) : null, linked };
}

/** The profile's suspension and its account's plan (null when the profile was deleted or its account is gone), in one read. */
export async function findSuspensionAndPlan(db: SqlExecutor, profileId: string): Promise<{ suspension: ProfileSuspension | null; plan: Plan | null }> {
  const row = await db.get('SELECT p.suspended_at, p.suspension, p.deleted_at, a.plan FROM profiles p LEFT JOIN accounts a ON a.id = p.account_id WHERE p.id = ?', [profileId]);
  if (!row) return { suspension: null, plan: null };
  return { suspension: suspensionOfRow(row), plan: row.deleted_at === null && row.plan != null ? (row.plan as Plan) : null };
}

/** The suspended profiles of an account, by profile id (for the profile listing). */
export async function suspensionsOfAccount(db: SqlExecutor, accountId: string): Promise<Map<string, ProfileSuspension>> {
  const rows = await db.all('SELECT id, suspended_at, suspension FROM profiles WHERE account_id = ? AND suspended_at IS NOT NULL', [accountId]);
  return new Map(rows.map((row) => [row.id as string, suspensionOfRow(row)!]));
}
