/**
 * @module
 * Migration: the webhook outbox moves onto the one jobs table. A pending event becomes a `webhook` job whose subject
 * is the profile and whose payload is `{action, body}` (`body` the exact JSON text that is sent and signed), keeping
 * its id (the `X-Webhook-Id` receivers deduplicate by), attempts, due time and last error. Delivered and failed rows
 * are history and are dropped with the old table. Deliveries keep their order: oldest due first, then by insertion,
 * so PostgreSQL's jobs gain the `seq` column the outbox had (SQLite orders by its built-in rowid).
 */
import type { SqlDialect } from '../core/db/sql-dialect.js';

export const WEBHOOK_JOB_KIND = 'webhook';

export function outboxOnJobsMigration(dialect: SqlDialect): string {
  const onPostgres = dialect.outboxInsertOrder === 'seq';
  const jobPayload = onPostgres ? `json_build_object('action', action, 'body', payload)::text` : `json_object('action', action, 'body', payload)`;
  return `${onPostgres ? '\n  ALTER TABLE jobs ADD COLUMN seq BIGSERIAL UNIQUE;' : ''}
  INSERT INTO jobs (id, kind, subject, payload, run_at, attempts, created_at, last_error)
    SELECT id, '${WEBHOOK_JOB_KIND}', profile_id, ${jobPayload}, next_attempt_at, attempts, created_at, last_error
    FROM webhook_outbox WHERE delivered_at IS NULL AND failed_at IS NULL
    ORDER BY next_attempt_at, created_at, ${dialect.outboxInsertOrder};
  DROP TABLE webhook_outbox;
  CREATE INDEX jobs_kind_due ON jobs(kind, run_at) WHERE done_at IS NULL AND failed_at IS NULL;
  CREATE INDEX jobs_kind_finished ON jobs(kind, (COALESCE(done_at, failed_at)));
  `;
}
