/**
 * @module
 * The `scheduled` webhook (spec 6.2), queued in the existing webhook outbox in the transaction that finishes the
 * post, and only when the profile registered a `scheduled` webhook. Payload as the public API the spec was written
 * from: `{action, subAction?, created, code, refId, status, id, errors, postIds, url}`; `subAction:
 * 'tikTokPublished'` when tiktok finished processing, `subAction: 'unconfirmed'` when a network's outcome could not be
 * decided after a crash (issue 30: the post is there at most once and was not sent again). `eventId` is stable across
 * retries.
 */
import type { PostIdEntry, PostPlatformError } from '@social-link-kit/protocol/publishing/index.js';
import type { SqlExecutor } from '../core/db/sql-driver.js';
import { addWebhookJob } from '../webhooks/webhook-job.js';
import { newId } from '../core/tokens.js';

export interface ScheduledEventInput {
  profileId: string;
  postId: string;
  status: string;
  errors: PostPlatformError[];
  postIds: PostIdEntry[];
  /** `unconfirmed`: a network's outcome could not be decided after a crash (any post, immediate ones too). */
  subAction?: 'tikTokPublished' | 'unconfirmed';
  at: number;
}

export async function enqueueScheduledEvent(tx: SqlExecutor, input: ScheduledEventInput): Promise<boolean> {
  const profile = await tx.get(
    `SELECT p.ref_id FROM webhooks w JOIN profiles p ON p.id = w.profile_id WHERE w.profile_id = ? AND w.action = 'scheduled'`,
    [input.profileId],
  );
  if (!profile) return false;
  const eventId = newId('evt_');
  const payload = {
    action: 'scheduled',
    ...(input.subAction && { subAction: input.subAction }),
    created: new Date(input.at).toISOString(),
    code: input.errors.length > 0 ? input.errors[0]!.code : 200,
    refId: profile.ref_id as string,
    status: input.status,
    id: input.postId,
    errors: input.errors,
    postIds: input.postIds,
    url: input.postIds.find((entry) => entry.postUrl)?.postUrl ?? null,
    eventId,
  };
  await addWebhookJob(tx, { id: eventId, profileId: input.profileId, action: 'scheduled', body: JSON.stringify(payload) }, input.at);
  return true;
}
