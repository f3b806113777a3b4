/**
 * @module
 * Unlinking an account: the account and its health go, and the profile's `social` webhook gets an `unlink` event in
 * the same transaction. Apart from the linking service so the suspension (accounts/suspension.ts) can unlink without
 * reaching the service's dependencies.
 */
import type { Network } from '@social-link-kit/protocol';
import type { SqlExecutor } from '../core/db/sql-driver.js';
import type { Storage } from '../storage/storage.js';
import { newSocialEvent } from '../webhooks/social-event.js';

/**
 * Returns true when an account was removed. When one was and the profile has a `social` webhook, the same
 * transaction adds an `unlink` event to the outbox, stamped `now`.
 */
export async function unlinkAccount(storage: Storage, profileId: string, platform: Network, now: number): Promise<boolean> {
  return storage.driver.transaction((tx) => unlinkAccountIn(tx, storage, profileId, platform, now));
}

/** `unlinkAccount` inside the caller's transaction (a suspension unlinks in the step that records it). */
export async function unlinkAccountIn(tx: SqlExecutor, storage: Storage, profileId: string, platform: Network, now: number): Promise<boolean> {
  const removed = await storage.linking.removeLinkedAccount(tx, profileId, platform);
  if (!removed) return false;
  await tx.run('DELETE FROM account_health WHERE profile_id = ? AND platform = ?', [profileId, platform]);
  await storage.webhooks.enqueue(tx, profileId, 'social', now, (profile) =>
    newSocialEvent({ event: 'unlink', platform, ...profile, displayName: removed.displayName, at: now }),
  );
  return true;
}
