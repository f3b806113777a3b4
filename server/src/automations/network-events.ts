/**
 * @module
 * Events a network sends about a linked account (a comment under its post, a message to it), as a job on the jobs
 * table: the real networks' webhook callbacks and the sandbox networks both queue one. The job, for each profile
 * that linked that account: fires the `comments` or `messages` webhook, and for a comment runs the profile's
 * active automations on that network whose trigger words it contains: a private reply to the commenter, recorded
 * as an activity row (`sent`, `failed` with the network's 490-495 in `errorDetails`, or `auth_error`) and fired as
 * the `automations` webhook. A failed private reply is never retried; a comment triggers an automation once.
 */
import type { Network } from '@social-link-kit/protocol';
import type { Clock } from '../core/clock.js';
import type { SqlDriver } from '../core/db/sql-driver.js';
import { JobStore, type Job } from '../core/jobs/job-store.js';
import type { JobHandler, JobOutcome } from '../core/jobs/job-worker.js';
import { newId } from '../core/tokens.js';
import { networkContextFor, type NetworkContextDeps } from '../analytics/network-context.js';
import type { PublishAdapter } from '../networks/publish-adapter.js';
import type { ActionResult, AutomationStore, Automation } from './automation-store.js';

export const JOB_NETWORK_EVENT = 'network-event';

export type NetworkEvent =
  | { type: 'comment'; platform: string; accountId: string; networkPostId: string; commentId: string; text: string; author: string; at: number }
  | { type: 'message'; platform: string; accountId: string; messageId: string; text: string; author: string; at: number };

export async function queueNetworkEvent(db: SqlDriver, event: NetworkEvent, now: number): Promise<void> {
  await new JobStore(db).add({ kind: JOB_NETWORK_EVENT, subject: `${event.platform}:${event.accountId}`, payload: event, runAt: now }, now);
}

/** Whole-word, case-insensitive; an automation without trigger words answers every comment. */
export function triggers(automation: Automation, text: string): boolean {
  if (automation.triggerWords.length === 0) return true;
  const words = new Set(text.toLowerCase().split(/[^\p{L}\p{N}#@]+/u).filter(Boolean));
  return automation.triggerWords.some((word) => words.has(word.toLowerCase()));
}

export function networkEventHandlers(deps: {
  db: SqlDriver;
  storage: NetworkContextDeps['storage'];
  contextDeps: NetworkContextDeps;
  adapters: Record<Network, PublishAdapter>;
  automations: AutomationStore;
  clock: Clock;
}): Record<string, JobHandler> {
  const { db, storage, automations, clock } = deps;

  async function runAutomation(profileId: string, automation: Automation, event: Extract<NetworkEvent, { type: 'comment' }>): Promise<void> {
    const platform = event.platform as Network;
    const activity = {
      id: newId('aac_'),
      automationId: automation.id,
      platform,
      networkPostId: event.networkPostId,
      commentId: event.commentId,
      commenter: event.author,
      status: 'pending' as const,
      actionResults: [] as ActionResult[],
      createdAt: clock(),
    };
    // Claimed before sending: a job that runs again after a crash never sends a second private reply.
    if (!(await automations.claim(activity))) return;
    const adapter = deps.adapters[platform];
    const ctx = await networkContextFor(deps.contextDeps, profileId, platform);
    let status: 'sent' | 'failed' | 'auth_error';
    let result: ActionResult;
    if (!ctx || !adapter.privateReply) {
      status = 'auth_error';
      result = { action: 'privateReply', status: 'error', errorDetails: { code: 492, message: `No ${platform} account with messaging permission is linked.` } };
    } else {
      const sent = await adapter.privateReply(ctx, event.commentId, automation.replyText).catch((error: unknown) => ({
        kind: 'failed' as const,
        code: 494,
        message: error instanceof Error ? error.message : String(error),
        relink: false,
        retryAvailable: false,
      }));
      if (sent.kind === 'done') {
        status = 'sent';
        result = { action: 'privateReply', status: 'success', id: sent.id };
      } else {
        // A revoked token or a missing permission (492) is the account's problem: reconnect. The rest are per comment.
        status = sent.relink || sent.code === 401 || sent.code === 492 ? 'auth_error' : 'failed';
        result = { action: 'privateReply', status: 'error', errorDetails: { code: sent.code, message: sent.message } };
      }
    }
    await automations.finish(activity.id, status, [result]);
    await db.transaction((tx) =>
      storage.webhooks.enqueue(tx, profileId, 'automations', clock(), (profile) => ({
        id: newId('evt_'),
        action: 'automations',
        created: new Date(clock()).toISOString(),
        refId: profile.refId,
        automationId: automation.id,
        activityId: activity.id,
        platform,
        status,
        commentId: event.commentId,
        postId: event.networkPostId,
        actionResults: [result],
      })),
    );
  }

  return {
    async [JOB_NETWORK_EVENT](job: Job): Promise<JobOutcome> {
      const event = job.payload as unknown as NetworkEvent;
      const profiles = await db.all('SELECT profile_id FROM social_accounts WHERE platform = ? AND network_user_id = ?', [event.platform, event.accountId]);
      for (const { profile_id: profileId } of profiles as { profile_id: string }[]) {
        const action = event.type === 'comment' ? 'comments' : 'messages';
        await db.transaction((tx) =>
          storage.webhooks.enqueue(tx, profileId, action, clock(), (profile) => ({
            id: newId('evt_'),
            action,
            created: new Date(event.at).toISOString(),
            refId: profile.refId,
            platform: event.platform,
            ...(event.type === 'comment'
              ? { postId: event.networkPostId, commentId: event.commentId, comment: event.text, author: event.author }
              : { messageId: event.messageId, message: event.text, author: event.author }),
          })),
        );
        if (event.type !== 'comment' || (event.platform !== 'instagram' && event.platform !== 'facebook')) continue;
        const servicePost = await db.get(
          `SELECT pp.post_id FROM post_platforms pp JOIN posts p ON p.id = pp.post_id WHERE p.profile_id = ? AND pp.platform = ? AND pp.network_post_id = ?`,
          [profileId, event.platform, event.networkPostId],
        );
        for (const automation of await automations.active(profileId, event.platform as Network)) {
          if (automation.postId !== null && automation.postId !== servicePost?.post_id) continue;
          if (triggers(automation, event.text)) await runAutomation(profileId, automation, event);
        }
      }
      return { kind: 'done' };
    },
  };
}
