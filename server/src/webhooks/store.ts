/**
 * @module
 * The webhooks feature's SQL: registrations (one per profile and action) and the outbox, which is the jobs table's
 * `webhook` rows (webhook-job.ts). They are claimed by the jobs engine's claim (core/jobs, with its lease token). Events are built by the feature that reports them and added
 * with `enqueue` inside that feature's transaction, so the change and its event commit together or not at all.
 */
import { toWebhook } from '../core/db/rows.js';
import { SqlStore } from '../core/db/sql-store.js';
import type { SqlExecutor } from '../core/db/sql-driver.js';
import type { WebhookAttempt, WebhookDelivery, WebhookDeliveryOutcome, WebhookDeliveryStatus, WebhookRegistration } from '../core/db/storage-types.js';
import { JobStore } from '../core/jobs/job-store.js';
import { addWebhookJob, webhookJobPayload } from './webhook-job.js';
import { WEBHOOK_JOB_KIND } from './outbox-on-jobs-migration.js';

/** One delivery as the delivery log shows it (times in ms; `nextAttemptAt` null once finished or when due at once). */
export interface WebhookLogEntry {
  id: string;
  action: string;
  /** The exact JSON text sent and signed. */
  body: string;
  attempts: number;
  createdAt: number;
  nextAttemptAt: number | null;
  deliveredAt: number | null;
  failedAt: number | null;
  lastError: string | null;
  history: WebhookAttempt[];
}

/** The profile an event is about, as a webhook payload names it. */
export interface EventProfile {
  refId: string;
  title: string;
}

export class WebhookStore extends SqlStore {

  async putWebhook(registration: WebhookRegistration): Promise<void> {
    await this.db.run(
      `INSERT INTO webhooks (profile_id, action, url, secret, created_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (profile_id, action) DO UPDATE SET url = excluded.url, secret = excluded.secret, created_at = excluded.created_at`,
      [registration.profileId, registration.action, registration.url, registration.sealedSecret, registration.createdAt],
    );
  }

  async listWebhooks(profileId: string): Promise<WebhookRegistration[]> {
    return (await this.db.all('SELECT * FROM webhooks WHERE profile_id = ? ORDER BY action', [profileId])).map(toWebhook);
  }

  async listWebhooksWithSecrets(): Promise<WebhookRegistration[]> {
    return (await this.db.all('SELECT * FROM webhooks WHERE secret IS NOT NULL ORDER BY profile_id, action')).map(toWebhook);
  }

  async replaceWebhookSecretIfUnchanged(profileId: string, action: string, from: string, to: string): Promise<boolean> {
    const changed = await this.db.run('UPDATE webhooks SET secret = ? WHERE profile_id = ? AND action = ? AND secret = ?', [to, profileId, action, from]);
    return changed > 0;
  }

  async deleteWebhook(profileId: string, action: string): Promise<boolean> {
    return (await this.db.run('DELETE FROM webhooks WHERE profile_id = ? AND action = ?', [profileId, action])) > 0;
  }

  /**
   * Leases up to `limit` due deliveries until `leaseUntil` (oldest due first, then in the order they were added), each
   * with its registration's URL and sealed secret. A due event whose registration is gone is failed instead.
   */
  async claimWebhookDeliveries(now: number, leaseUntil: number, limit: number): Promise<WebhookDelivery[]> {
    // The jobs engine's claim: a lease token per batch, so a worker whose lease ran out finishes nothing.
    const jobs = new JobStore(this.db);
    const claimed: WebhookDelivery[] = [];
    for (const job of await jobs.claim(now, limit, [WEBHOOK_JOB_KIND], leaseUntil - now)) {
      const event = webhookJobPayload(JSON.stringify(job.payload));
      const registration = await this.db.get('SELECT url, secret FROM webhooks WHERE profile_id = ? AND action = ?', [job.subject, event.action]);
      if (!registration) {
        await jobs.fail(job, now, 'webhook unregistered');
        continue;
      }
      claimed.push({
        id: job.id,
        profileId: job.subject,
        action: event.action,
        payload: event.body,
        url: registration.url as string,
        sealedSecret: (registration.secret as string | null) ?? null,
        attempts: job.attempts,
        createdAt: job.createdAt,
        leaseToken: job.leaseToken,
      });
    }
    return claimed;
  }

  /**
   * Records the outcome of an attempt and, when given, the attempt itself (the delivery log) together. A claimed
   * delivery is named with its lease token: when the lease ran out and another worker holds the row, the outcome
   * changes nothing (the attempt is still logged). A bare id finishes the row whoever holds it (tests, operations).
   */
  async finishWebhookDelivery(delivery: string | Pick<WebhookDelivery, 'id' | 'leaseToken'>, outcome: WebhookDeliveryOutcome, attempt?: WebhookAttempt): Promise<void> {
    const [id, token] = typeof delivery === 'string' ? [delivery, null] : [delivery.id, delivery.leaseToken];
    const held = token === null ? '' : ' AND lease_token = ?';
    const heldBy = token === null ? [] : [token];
    await this.db.transaction(async (tx) => {
      if (outcome.kind === 'delivered') {
        await tx.run(`UPDATE jobs SET done_at = ?, lease_token = NULL, lease_until = NULL, last_error = NULL WHERE id = ?${held}`, [outcome.at, id, ...heldBy]);
      } else if (outcome.kind === 'retry') {
        await tx.run(`UPDATE jobs SET run_at = ?, lease_token = NULL, lease_until = NULL, last_error = ? WHERE id = ?${held}`, [outcome.nextAttemptAt, outcome.error, id, ...heldBy]);
      } else {
        await tx.run(`UPDATE jobs SET failed_at = ?, lease_token = NULL, lease_until = NULL, last_error = ? WHERE id = ?${held}`, [outcome.at, outcome.error, id, ...heldBy]);
      }
      if (!attempt) return;
      // A lease that ran out may let two workers make "the same" attempt: the first record stays.
      await tx.run(
        `INSERT INTO webhook_attempts (delivery_id, attempt, at, response_status, error) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (delivery_id, attempt) DO NOTHING`,
        [id, attempt.attempt, attempt.at, attempt.responseStatus, attempt.error],
      );
    });
  }

  /** Every delivery of a profile still kept (pending, delivered or failed), in the order they were added. */
  async listWebhookDeliveries(profileId: string): Promise<WebhookDeliveryStatus[]> {
    const rows = await this.db.all(
      `SELECT id, payload, attempts, run_at, done_at, failed_at, last_error FROM jobs
       WHERE kind = '${WEBHOOK_JOB_KIND}' AND subject = ? ORDER BY created_at, ${this.dialect.outboxInsertOrder}`,
      [profileId],
    );
    return rows.map((row) => {
      const event = webhookJobPayload(row.payload as string);
      return {
        id: row.id as string,
        action: event.action,
        payload: event.body,
        attempts: Number(row.attempts),
        nextAttemptAt: Number(row.run_at),
        deliveredAt: row.done_at === null ? null : Number(row.done_at),
        failedAt: row.failed_at === null ? null : Number(row.failed_at),
        lastError: (row.last_error as string | null) ?? null,
      };
    });
  }

  /**
   * The delivery log of a profile, newest first: each kept delivery (optionally of one action) with its attempts.
   * Finished deliveries are kept for the outbox retention (delivery-settings.ts), pending ones until they finish.
   */
  async listDeliveryLog(profileId: string, filter: { action?: string; id?: string }, limit: number): Promise<WebhookLogEntry[]> {
    const rows = await this.db.all(
      `SELECT id, payload, attempts, run_at, created_at, done_at, failed_at, last_error FROM jobs
       WHERE kind = '${WEBHOOK_JOB_KIND}' AND subject = ?${filter.id === undefined ? '' : ' AND id = ?'}
       ORDER BY created_at DESC, ${this.dialect.outboxInsertOrder} DESC`,
      filter.id === undefined ? [profileId] : [profileId, filter.id],
    );
    // The action is inside the payload's JSON: filtered here, on the rows the retention keeps.
    const entries = rows
      .map((row) => ({ row, event: webhookJobPayload(row.payload as string) }))
      .filter(({ event }) => filter.action === undefined || event.action === filter.action)
      .slice(0, limit);
    const attempts = await this.attemptsOf(entries.map(({ row }) => row.id as string));
    return entries.map(({ row, event }) => ({
      id: row.id as string,
      action: event.action,
      body: event.body,
      attempts: Number(row.attempts),
      createdAt: Number(row.created_at),
      // run_at 0 is "due at once" (webhook-job.ts): no time to show.
      nextAttemptAt: row.done_at === null && row.failed_at === null && Number(row.run_at) > 0 ? Number(row.run_at) : null,
      deliveredAt: row.done_at === null ? null : Number(row.done_at),
      failedAt: row.failed_at === null ? null : Number(row.failed_at),
      lastError: (row.last_error as string | null) ?? null,
      history: attempts.get(row.id as string) ?? [],
    }));
  }

  private async attemptsOf(ids: string[]): Promise<Map<string, WebhookAttempt[]>> {
    const byDelivery = new Map<string, WebhookAttempt[]>();
    if (ids.length === 0) return byDelivery;
    const rows = await this.db.all(
      `SELECT delivery_id, attempt, at, response_status, error FROM webhook_attempts
       WHERE delivery_id IN (${ids.map(() => '?').join(', ')}) ORDER BY delivery_id, attempt`,
      ids,
    );
    for (const row of rows) {
      const list = byDelivery.get(row.delivery_id as string) ?? [];
      list.push({
        attempt: Number(row.attempt),
        at: Number(row.at),
        responseStatus: row.response_status === null ? null : Number(row.response_status),
        error: (row.error as string | null) ?? null,
      });
      byDelivery.set(row.delivery_id as string, list);
    }
    return byDelivery;
  }

  /**
   * Makes one delivery of the profile due again now (one more attempt, the same event id and body), whether it was
   * delivered, failed or is still waiting; a lease in flight is left to finish. False when the profile has no such
   * delivery.
   */
  async redeliver(profileId: string, id: string): Promise<boolean> {
    // run_at 0: due at once on the worker's wall clock, whatever clock the service runs on (as webhook-job.ts adds).
    const changed = await this.db.run(
      `UPDATE jobs SET run_at = 0, done_at = NULL, failed_at = NULL
       WHERE id = ? AND kind = '${WEBHOOK_JOB_KIND}' AND subject = ?`,
      [id, profileId],
    );
    return changed > 0;
  }

  async pruneWebhookOutbox(finishedBefore: number): Promise<number> {
    // Pending rows have neither time, so COALESCE is NULL and they never match.
    const removed = await this.db.run(`DELETE FROM jobs WHERE kind = '${WEBHOOK_JOB_KIND}' AND COALESCE(done_at, failed_at) < ?`, [finishedBefore]);
    await this.db.run('DELETE FROM webhook_attempts WHERE NOT EXISTS (SELECT 1 FROM jobs j WHERE j.id = webhook_attempts.delivery_id)');
    return removed;
  }

  async removeWebhooksOfDeletedProfiles(): Promise<number> {
    // A deleted profile keeps its registrations until its last events (the unlinks of its deletion) are done.
    return this.db.run(
      `DELETE FROM webhooks
       WHERE profile_id IN (SELECT id FROM profiles WHERE deleted_at IS NOT NULL)
         AND NOT EXISTS (SELECT 1 FROM jobs j
                         WHERE j.kind = '${WEBHOOK_JOB_KIND}' AND j.subject = webhooks.profile_id AND j.done_at IS NULL AND j.failed_at IS NULL)`,
    );
  }

  /**
   * Adds an event to the outbox inside the caller's transaction when the profile has a registration for `action`;
   * `build` makes the payload from the profile (it is not called when there is none).
   */
  async enqueue(tx: SqlExecutor, profileId: string, action: string, now: number, build: (profile: EventProfile) => { id: string }): Promise<void> {
    const profile = await tx.get(
      `SELECT p.ref_id, p.title FROM webhooks w JOIN profiles p ON p.id = w.profile_id
       WHERE w.profile_id = ? AND w.action = ?`,
      [profileId, action],
    );
    if (!profile) return;
    const payload = build({ refId: profile.ref_id as string, title: profile.title as string });
    await addWebhookJob(tx, { id: payload.id, profileId, action, body: JSON.stringify(payload) }, now);
  }
}
