/**
 * Migration 13 on a real database (SQLite, and PostgreSQL with TEST_DATABASE_URL): a database at version 12 with
 * outbox rows is migrated; the undelivered rows become `webhook` jobs with their ids, bodies, attempts, due times and
 * errors, in their old order; delivered and failed rows are gone with the old table; the worker's claim delivers them.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Storage } from '../../src/storage/storage.js';
import { postgresMigratedFrom, sqliteMigratedFrom } from '../support/migrated-from.js';

const OUTBOX_VERSION = 12;
const T0 = Date.parse('2026-11-22T12:00:00Z');

/** The version-12 database's content: one profile with a `social` registration and four outbox rows. */
function seedAtVersion12(): string {
  const body = (id: string) => JSON.stringify({ id, action: 'social', event: 'link', platform: 'twitter', refId: 'ref-1', title: 'P' });
  return `
    INSERT INTO accounts (id, name, plan, domains, created_at) VALUES ('acc_1', 'A', 'business', '[]', ${T0});
    INSERT INTO profiles (id, account_id, ref_id, title, is_primary, created_at) VALUES ('pr_1', 'acc_1', 'ref-1', 'P', 1, ${T0});
    INSERT INTO webhooks (profile_id, action, url, secret, created_at) VALUES ('pr_1', 'social', 'https://hooks.example/in', NULL, ${T0});
    INSERT INTO webhook_outbox (id, profile_id, action, payload, created_at, next_attempt_at) VALUES ('evt_new', 'pr_1', 'social', '${body('evt_new')}', ${T0 + 5}, 0);
    INSERT INTO webhook_outbox (id, profile_id, action, payload, created_at, next_attempt_at, attempts, last_error) VALUES ('evt_retry', 'pr_1', 'social', '${body('evt_retry')}', ${T0 + 1}, 0, 2, 'HTTP 500');
    INSERT INTO webhook_outbox (id, profile_id, action, payload, created_at, next_attempt_at, attempts, delivered_at) VALUES ('evt_done', 'pr_1', 'social', '${body('evt_done')}', ${T0}, 0, 1, ${T0 + 2});
    INSERT INTO webhook_outbox (id, profile_id, action, payload, created_at, next_attempt_at, attempts, failed_at, last_error) VALUES ('evt_failed', 'pr_1', 'social', '${body('evt_failed')}', ${T0}, 0, 8, ${T0 + 3}, 'gave up');
    INSERT INTO webhook_outbox (id, profile_id, action, payload, created_at, next_attempt_at) VALUES ('evt_later', 'pr_1', 'social', '${body('evt_later')}', ${T0}, ${T0 + 60_000});
  `;
}

async function checkMigrated(storage: Storage): Promise<void> {
  const rows = await storage.webhooks.listWebhookDeliveries('pr_1');
  assert.deepEqual(
    rows.map((row) => [row.id, row.attempts, row.nextAttemptAt, row.lastError, JSON.parse(row.payload).id]),
    [
      ['evt_later', 0, T0 + 60_000, null, 'evt_later'],
      ['evt_retry', 2, 0, 'HTTP 500', 'evt_retry'],
      ['evt_new', 0, 0, null, 'evt_new'],
    ],
    'pending rows moved with everything they had; finished rows dropped',
  );
  const claimed = await storage.webhooks.claimWebhookDeliveries(T0 + 10, T0 + 20, 10);
  assert.deepEqual(
    claimed.map((delivery) => [delivery.id, delivery.attempts, delivery.url]),
    [
      ['evt_retry', 3, 'https://hooks.example/in'],
      ['evt_new', 1, 'https://hooks.example/in'],
    ],
    'due rows claimed oldest first; the later one waits',
  );
  assert.equal(claimed[0]!.payload, JSON.stringify({ id: 'evt_retry', action: 'social', event: 'link', platform: 'twitter', refId: 'ref-1', title: 'P' }), 'the exact body is sent');
}

describe('migration 13: the outbox moves onto the jobs table', () => {
  it('SQLite', () => sqliteMigratedFrom(OUTBOX_VERSION, seedAtVersion12(), checkMigrated));

  it('PostgreSQL', { skip: process.env.TEST_DATABASE_URL ? false : 'no TEST_DATABASE_URL' }, () => postgresMigratedFrom(OUTBOX_VERSION, seedAtVersion12(), checkMigrated));
});
