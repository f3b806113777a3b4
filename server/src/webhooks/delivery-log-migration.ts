/**
 * @module
 * Migration: the delivery log. One row per attempt of a webhook delivery (a `webhook` job, webhook-job.ts): when it
 * was made, the receiver's HTTP status (null when there was no answer) and the error. The API's delivery log
 * (`GET /api/hook/webhook/deliveries`) reads it; rows go when their job is pruned.
 */
import type { SqlDialect } from '../core/db/sql-dialect.js';

export function deliveryLogMigration(dialect: SqlDialect): string {
  return `
  CREATE TABLE webhook_attempts (
    delivery_id TEXT NOT NULL,
    attempt INTEGER NOT NULL,
    at ${dialect.timeType} NOT NULL,
    response_status INTEGER,
    error TEXT,
    PRIMARY KEY (delivery_id, attempt)
  );
  `;
}
