/**
 * @module
 * The webhooks feature's SQL: registrations (one per profile and action) and the outbox. Outbox rows are claimed in
 * one transaction (PostgreSQL: FOR UPDATE SKIP LOCKED). Events are built by the feature that reports them and added
 * with `enqueue` inside that feature's transaction, so the change and its event commit together or not at all.
 */
import { toClaimedDelivery, toDeliveryStatus, toWebhook } from '../core/db/rows.js';
import { SqlStore } from '../core/db/sql-store.js';
import type { SqlExecutor } from '../core/db/sql-driver.js';
import type { WebhookDelivery, WebhookDeliveryOutcome, WebhookDeliveryStatus, WebhookRegistration } from '../core/db/storage-types.js';

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

  async claimWebhookDeliveries(now: number, leaseUntil: number, limit: number): Promise<WebhookDelivery[]> {
    return this.db.transaction(async (tx) => {
      const rows = await tx.all(
        `SELECT o.id, o.profile_id, o.action, o.payload, o.attempts, o.created_at, w.url, w.secret
         FROM webhook_outbox o LEFT JOIN webhooks w ON w.profile_id = o.profile_id AND w.action = o.action
         WHERE o.delivered_at IS NULL AND o.failed_at IS NULL AND o.next_attempt_at <= ?
           AND (o.claimed_until IS NULL OR o.claimed_until <= ?)
         ORDER BY o.next_attempt_at, o.created_at, o.${this.dialect.outboxInsertOrder} LIMIT ?${this.dialect.forUpdateSkipLocked('o')}`,
        [now, now, limit],
      );
      const claimed: WebhookDelivery[] = [];
      for (const row of rows) {
        if (row.url === null) {
          await tx.run("UPDATE webhook_outbox SET failed_at = ?, last_error = 'webhook unregistered' WHERE id = ?", [now, row.id]);
          continue;
        }
        await tx.run('UPDATE webhook_outbox SET claimed_until = ?, attempts = attempts + 1 WHERE id = ?', [leaseUntil, row.id]);
        claimed.push(toClaimedDelivery(row));
      }
      return claimed;
    });
  }

  async finishWebhookDelivery(id: string, outcome: WebhookDeliveryOutcome): Promise<void> {
    if (outcome.kind === 'delivered') {
      await this.db.run('UPDATE webhook_outbox SET delivered_at = ?, claimed_until = NULL, last_error = NULL WHERE id = ?', [outcome.at, id]);
    } else if (outcome.kind === 'retry') {
      await this.db.run('UPDATE webhook_outbox SET next_attempt_at = ?, claimed_until = NULL, last_error = ? WHERE id = ?', [
        outcome.nextAttemptAt,
        outcome.error,
        id,
      ]);
    } else {
      await this.db.run('UPDATE webhook_outbox SET failed_at = ?, claimed_until = NULL, last_error = ? WHERE id = ?', [outcome.at, outcome.error, id]);
    }
  }

  async listWebhookDeliveries(profileId: string): Promise<WebhookDeliveryStatus[]> {
    const order = this.dialect.outboxInsertOrder;
    return (await this.db.all(`SELECT * FROM webhook_outbox WHERE profile_id = ? ORDER BY created_at, ${order}`, [profileId])).map(toDeliveryStatus);
  }

  async pruneWebhookOutbox(finishedBefore: number): Promise<number> {
    // Pending rows have neither time, so COALESCE is NULL and they never match.
    return this.db.run('DELETE FROM webhook_outbox WHERE COALESCE(delivered_at, failed_at) < ?', [finishedBefore]);
  }

  async removeWebhooksOfDeletedProfiles(): Promise<number> {
    // A deleted profile keeps its registrations until its last events (the unlinks of its deletion) are done.
    return this.db.run(
      `DELETE FROM webhooks
       WHERE profile_id IN (SELECT id FROM profiles WHERE deleted_at IS NOT NULL)
         AND NOT EXISTS (SELECT 1 FROM webhook_outbox o
                         WHERE o.profile_id = webhooks.profile_id AND o.delivered_at IS NULL AND o.failed_at IS NULL)`,
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
    // next_attempt_at 0: due at once, whichever clock the delivery worker runs on.
    await tx.run(
      `INSERT INTO webhook_outbox (id, profile_id, action, payload, created_at, next_attempt_at)
       VALUES (?, ?, ?, ?, ?, 0)`,
      [payload.id, profileId, action, JSON.stringify(payload), now],
    );
  }
}
