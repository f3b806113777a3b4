/**
 * @module
 * Spec 7 (106) at the moment a scheduled post starts: a post due in a later month than it was created in counts in
 * the month it is sent; when that month's quota is used, every platform fails with 106 instead of publishing. One due
 * in the month it was created in was counted then; it fails when the month's count is over the quota now (the quota
 * was lowered since).
 */
import type { Clock } from '../core/clock.js';
import { ApiError } from '../core/errors.js';
import type { Plan } from '../core/db/storage-types.js';
import { countPosts, QUOTA_EXCEEDED, quotaAndCount, quotaError, quotaMonth } from './post-quota.js';
import type { PostStore, StoredPost } from './post-store.js';

/**
 * False when the post failed with 106 (its platforms' errors recorded, then `finishPost`). `plan`: the profile's
 * account's, read a moment ago with its suspension (accounts/suspension.ts); null when the profile or account is gone.
 */
export async function countDueInItsMonth(deps: { store: PostStore; clock: Clock }, post: StoredPost, plan: Plan | null, finishPost: (postId: string) => Promise<unknown>): Promise<boolean> {
  const { store, clock } = deps;
  const now = clock();
  if (plan === null) return true;
  try {
    if (quotaMonth(post.createdAt) !== quotaMonth(now)) await store.db.transaction((tx) => countPosts(tx, post.profileId, plan, 1, now));
    else {
      // Counted when it was created: one read, no transaction (quota and count in one statement).
      const { quota, count } = await quotaAndCount(store.db, post.profileId, plan, now);
      if (count > quota) throw quotaError(quota);
    }
    return true;
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== QUOTA_EXCEEDED) throw error;
    for (const row of await store.listPlatforms(post.id)) {
      if (row.status === 'queued' || row.status === 'processing') {
        await store.recordError(post.id, row.platform, { code: QUOTA_EXCEEDED, message: error.message }, now);
      }
    }
    await finishPost(post.id);
    return false;
  }
}
