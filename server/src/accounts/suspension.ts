/**
 * @module
 * Profile suspension (spec 7, code 249: "a repeat violation unlinks the account and suspends the user profile").
 * - A repeat is a second community standards block (249) of the same linked account (profile, network and the
 *   account's network id) within REPEAT_WINDOW_DAYS of an earlier one. An unlink and relink of the same account
 *   does not reset the count; lifting a suspension does not either, so a further block within the window suspends
 *   again.
 * - On a repeat, in the transaction that records the post's result: the account is unlinked through the unlink path
 *   (its `social` `unlink` event), the profile is marked suspended and a `suspended` webhook is queued.
 * - A suspended profile publishes nothing (create and retry answer 403 with code 105; due posts fail with 105)
 *   and links nothing (link sessions, connections on the hosted page). Reading, deleting and unlinking stay open.
 * - The Primary Profile (a request without `Profile-Key`) lifts it: `PATCH /api/profiles` `{refId, suspended: false}`.
 */
import { ErrorCode, type Network, type ProfileSuspension, type SuspendedWebhookPayload } from '@social-link-kit/protocol';
import { iso } from '../core/clock.js';
import type { SqlExecutor } from '../core/db/sql-driver.js';
import type { Plan, SocialAccount } from '../core/db/storage-types.js';
import { ApiError } from '../core/errors.js';
import { newId } from '../core/tokens.js';
import { unlinkAccountIn } from '../linking/unlink.js';
import type { Storage } from '../storage/storage.js';
import type { PublishFailure } from '../networks/publish-adapter.js';
import { clearSuspension, countEarlierViolations, findSuspension, findSuspensionAndPlan, findSuspensionAndSocialAccounts, insertViolation, linkedAccountId, markSuspended, type SuspensionCause } from './suspension-store.js';

export const COMMUNITY_STANDARDS_BLOCK = 249;
export const REPEAT_WINDOW_DAYS = 30;
const DAY_MS = 86_400_000;

export interface BlockedPost {
  profileId: string;
  platform: Network;
  postId: string;
  at: number;
}

/**
 * Records a 249 of the profile's account on `platform` (the one linked now) inside the caller's transaction and,
 * when it is a repeat, unlinks the account and suspends the profile. True when it suspended.
 */
export async function recordCommunityStandardsBlock(tx: SqlExecutor, storage: Storage, blocked: BlockedPost): Promise<boolean> {
  const { profileId, platform, postId, at } = blocked;
  const networkUserId = await linkedAccountId(tx, profileId, platform);
  if (networkUserId === null) return false;
  const violation = { profileId, platform, postId, at, networkUserId, code: COMMUNITY_STANDARDS_BLOCK };
  if (!(await insertViolation(tx, violation))) return false;
  if ((await countEarlierViolations(tx, violation, at - REPEAT_WINDOW_DAYS * DAY_MS)) === 0) return false;
  await unlinkAccountIn(tx, storage, profileId, platform, at);
  const cause: SuspensionCause = {
    code: COMMUNITY_STANDARDS_BLOCK,
    platform,
    reason: `${platform} blocked a second post of this account under its community standards within ${REPEAT_WINDOW_DAYS} days; the account was unlinked.`,
  };
  if (await markSuspended(tx, profileId, cause, at)) {
    await storage.webhooks.enqueue(tx, profileId, 'suspended', at, (profile): SuspendedWebhookPayload => ({ id: newId('evt_'), action: 'suspended', event: 'suspended', ...profile, ...cause, created: iso(at) }));
  }
  return true;
}

/** The profile's suspension, or null. */
export function suspensionOf(db: SqlExecutor, profileId: string): Promise<ProfileSuspension | null> {
  return findSuspension(db, profileId);
}

/**
 * A scheduled post's start (publishing/engine.ts): the suspension with the plan its month's quota is counted on, in
 * one read (issue 31); `plan` is null when the profile was deleted or its account is gone.
 */
export function suspensionAndPlanOf(db: SqlExecutor, profileId: string): Promise<{ suspension: ProfileSuspension | null; plan: Plan | null }> {
  return findSuspensionAndPlan(db, profileId);
}

/** The refusal of anything a suspended profile may not do (publishing, linking), in the envelope. */
export function suspendedError(suspension: ProfileSuspension, action: string): ApiError {
  return new ApiError(403, ErrorCode.profileSuspended, `The profile is suspended since ${suspension.since}: ${suspension.reason} The Primary Profile can lift it (PATCH /api/profiles).`, {
    action,
    details: { suspension },
  });
}

/** A due post of a suspended profile fails with 105 on each platform, never retried. */
export function suspendedFailure(suspension: ProfileSuspension): PublishFailure {
  const error = suspendedError(suspension, 'post');
  return { kind: 'failed', code: error.code, message: error.message, retryAvailable: false, relink: false, details: { suspension } };
}

/** Throws 403 with code 105 when the profile is suspended. */
export async function assertNotSuspended(db: SqlExecutor, profileId: string, action: string): Promise<void> {
  const suspension = await findSuspension(db, profileId);
  if (suspension) throw suspendedError(suspension, action);
}

/**
 * A post's create: throws 403 with code 105 when the profile is suspended, else answers its linked accounts by
 * network, read in the same statement as the suspension (one read instead of one plus one per network; issue 31).
 */
export async function linkedAccountsUnlessSuspended(db: SqlExecutor, profileId: string, action: string): Promise<Map<Network, SocialAccount>> {
  const { suspension, linked } = await findSuspensionAndSocialAccounts(db, profileId);
  if (suspension) throw suspendedError(suspension, action);
  return linked;
}

/** Lifts the profile's suspension, with a `suspended` webhook (`event: "lifted"`). False when it was not suspended. */
export async function liftSuspension(storage: Storage, profileId: string, now: number): Promise<boolean> {
  return storage.driver.transaction(async (tx) => {
    if (!(await clearSuspension(tx, profileId))) return false;
    await storage.webhooks.enqueue(tx, profileId, 'suspended', now, (profile): SuspendedWebhookPayload => ({ id: newId('evt_'), action: 'suspended', event: 'lifted', ...profile, created: iso(now) }));
    return true;
  });
}
