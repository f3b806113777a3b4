/**
 * Webhook deliveries are claimed through the jobs engine (core/jobs) and finished by its lease token, on a real
 * SQLite database: a worker whose lease ran out, and whose row another worker claimed since, records its attempt
 * but does not change the row; the worker holding the lease does.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, it } from 'node:test';
import { SqliteStorage } from '../../src/storage/sqlite.js';
import { addWebhookJob } from '../../src/webhooks/webhook-job.js';

const T0 = Date.parse('2026-11-27T12:00:00Z');
const dir = mkdtempSync(join(tmpdir(), 'slk-webhook-lease-'));
after(() => rmSync(dir, { recursive: true, force: true }));

it('an expired lease finishes nothing; the current holder finishes the delivery', async () => {
  const storage = new SqliteStorage(join(dir, 'service.db'));
  await storage.migrate();
  try {
    await storage.driver.run(`INSERT INTO accounts (id, name, plan, domains, created_at) VALUES ('acc_1', 'A', 'business', '[]', ?)`, [T0]);
    await storage.driver.run(`INSERT INTO profiles (id, account_id, ref_id, title, is_primary, created_at) VALUES ('pr_1', 'acc_1', 'ref-1', 'P', 1, ?)`, [T0]);
    await storage.webhooks.putWebhook({ profileId: 'pr_1', action: 'social', url: 'https://hooks.example/in', sealedSecret: null, createdAt: T0 });
    await addWebhookJob(storage.driver, { id: 'evt_1', profileId: 'pr_1', action: 'social', body: '{"id":"evt_1"}' }, T0);

    const [late] = await storage.webhooks.claimWebhookDeliveries(T0 + 1, T0 + 10, 5);
    assert.equal(late?.id, 'evt_1');
    // The first worker's lease (9 ms, on real time like every job lease) runs out; a second worker claims the row again.
    await new Promise((resolve) => setTimeout(resolve, 30));
    const [current] = await storage.webhooks.claimWebhookDeliveries(T0 + 20, T0 + 80, 5);
    assert.equal(current?.id, 'evt_1');
    assert.notEqual(current.leaseToken, late!.leaseToken);

    await storage.webhooks.finishWebhookDelivery(late!, { kind: 'failed', at: T0 + 30, error: 'gave up' }, { attempt: 1, at: T0 + 30, responseStatus: 500, error: 'HTTP 500' });
    let [row] = await storage.webhooks.listWebhookDeliveries('pr_1');
    assert.equal(row?.failedAt, null, 'the expired lease changed nothing');
    assert.equal(row?.deliveredAt, null);

    await storage.webhooks.finishWebhookDelivery(current, { kind: 'delivered', at: T0 + 40 }, { attempt: 2, at: T0 + 40, responseStatus: 200, error: null });
    [row] = await storage.webhooks.listWebhookDeliveries('pr_1');
    assert.equal(row?.deliveredAt, T0 + 40, 'the holder of the lease delivered it');
    assert.equal(row?.failedAt, null);
  } finally {
    await storage.close();
  }
});
