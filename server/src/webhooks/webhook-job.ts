/**
 * @module
 * A webhook event waiting for delivery is a row of the jobs table: kind `webhook`, subject the profile, id the event's
 * id (sent as `X-Webhook-Id`), payload `{action, body}` where `body` is the exact JSON text that is sent and signed.
 * Added inside the transaction of the change it reports, so both commit together or not at all.
 */
import type { SqlExecutor } from '../core/db/sql-driver.js';
import { JobStore } from '../core/jobs/job-store.js';
import { WEBHOOK_JOB_KIND } from './outbox-on-jobs-migration.js';

export interface WebhookJob {
  id: string;
  profileId: string;
  action: string;
  body: string;
}

export async function addWebhookJob(tx: SqlExecutor, event: WebhookJob, now: number): Promise<void> {
  // run_at 0: due at once, whichever clock the delivery worker runs on (it uses the wall clock, the service may not).
  await JobStore.addIn(tx, { id: event.id, kind: WEBHOOK_JOB_KIND, subject: event.profileId, payload: { action: event.action, body: event.body }, runAt: 0 }, now);
}

export function webhookJobPayload(text: string): { action: string; body: string } {
  const payload = JSON.parse(text) as { action: string; body: string };
  return { action: payload.action, body: payload.body };
}
