/**
 * Issue 30, the explicit `unconfirmed` outcome: when reconcile cannot decide whether an interrupted commit reached
 * the network (telegram has no message look-up), the platform ends as an error whose details say
 * `outcome: 'unknown'`, it is never sent again, and the profile's `scheduled` webhook gets `subAction: 'unconfirmed'`
 * naming the post, even for an immediate post whose request died with the process (no one else would learn of it).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { it } from 'node:test';
import { freePort, startChildService, type ChildService } from '../support/child-service.js';
import { stopChild } from '../support/stop-child.js';
import { startWebhookReceiver } from '../support/webhook-receiver.js';
import { FAST_DELIVERY } from '../webhooks/fixtures.js';

const exited = (child: ChildService) =>
  new Promise<void>((resolve) => (child.process.exitCode !== null || child.process.signalCode !== null ? resolve() : child.process.once('exit', () => resolve())));

it('an undecidable interrupted commit: error with outcome unknown, not sent again, an `unconfirmed` webhook', async () => {
  const receiver = await startWebhookReceiver();
  const dataDir = mkdtempSync(join(tmpdir(), 'slk-unconfirmed-'));
  const env = { DATA_DIR: dataDir, PORT: String(await freePort()), HOST: '127.0.0.1', JOBS_POLL_MS: '20', JOBS_LEASE_MS: '1000', JOBS_RETRY_BASE_MS: '50', JOBS_RETRY_MAX_MS: '200', ...FAST_DELIVERY, ...receiver.serviceEnv };
  let child = await startChildService({ ...env, PUBLISH_TEST_CRASH_AT: 'after-commit-started' });
  try {
    const apiKey = readFileSync(join(dataDir, 'dev-api-key.txt'), 'utf8').trim();
    const call = (method: string, path: string, body?: unknown) =>
      fetch(`${child.url}/api${path}`, { method, headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    assert.equal((await call('POST', '/sandbox/accounts', { platform: 'telegram' })).status, 200);
    assert.equal((await call('POST', '/hook/webhook', { action: 'scheduled', url: receiver.url, secret: 'unconfirmed-secret' })).status, 200);
    await call('POST', '/post', { post: 'A message whose fate is unknown', platforms: ['telegram'] }).catch(() => null);
    await exited(child);
    child = await startChildService(env);
    const hook = await receiver.waitFor((request) => request.body.includes('"unconfirmed"'), 30_000);
    const body = JSON.parse(hook.body) as Record<string, any>;
    assert.equal(body.subAction, 'unconfirmed');
    assert.equal(body.status, 'unconfirmed');
    assert.equal(body.errors[0].platform, 'telegram');
    assert.equal(body.errors[0].details.outcome, 'unknown');
    assert.match(body.errors[0].message, /not sent again/);
    const reader = new Database(join(dataDir, 'social-link.db'), { readonly: true });
    try {
      assert.equal((reader.prepare('SELECT id FROM posts').get() as { id: string }).id, body.id);
      assert.equal((reader.prepare("SELECT COUNT(*) AS n FROM sandbox_posts WHERE platform = 'telegram'").get() as { n: number }).n, 0, 'not sent again');
    } finally {
      reader.close();
    }
  } finally {
    await stopChild(child.process, 'SIGKILL');
    await receiver.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
