/**
 * Durability of webhook delivery across a crash: the service runs as a child process (`server/src/main.ts`),
 * is killed with SIGKILL while the receiver holds a delivery open, and is started again on the same data
 * directory. Every event must then arrive (duplicates are allowed; each event id must be seen answered 200).
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SqliteStorage } from '../../src/storage/sqlite.js';
import { startChildService, type ChildService } from '../support/child-service.js';
import { stopChild } from '../support/stop-child.js';
import { eventually, startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { linkAccount } from '../../src/linking/service.js';

const killHard = (child: ChildProcess) => stopChild(child, 'SIGKILL');

describe('webhook delivery survives a crash', () => {
  let receiver: WebhookReceiver;
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  let child: ChildService | null = null;

  before(async () => {
    receiver = await startWebhookReceiver();
    dataDir = mkdtempSync(join(tmpdir(), 'slk-crash-'));
    env = {
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      ...receiver.serviceEnv,
      WEBHOOK_POLL_MS: '50',
      WEBHOOK_RETRY_BASE_MS: '100',
      WEBHOOK_RETRY_MAX_MS: '400',
      // The lease is this plus one second: a killed worker's rows are sent again about 2.5 s later.
      WEBHOOK_TIMEOUT_MS: '1500',
    };
  });
  after(async () => {
    if (child) await killHard(child.process);
    await receiver.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('re-delivers the event that was in flight when the process was killed', async () => {
    child = await startChildService(env);
    const apiKey = readFileSync(join(dataDir, 'dev-api-key.txt'), 'utf8').trim();
    const api = async (method: string, path: string, body: unknown) => {
      const response = await fetch(`${child!.url}/api${path}`, {
        method,
        headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: response.status, json: (await response.json()) as Record<string, any> };
    };

    const registered = await api('POST', '/hook/webhook', { action: 'social', url: receiver.url, secret: 'crash-secret' });
    assert.equal(registered.status, 200);

    // A linked account, written through the same SQLite file (WAL) the way the OAuth callback commits it.
    const session = await api('POST', '/profiles/link-sessions', {});
    const storage = new SqliteStorage(join(dataDir, 'social-link.db'));
    try {
      const profile = (await storage.accounts.findProfileByRefId(registered.json.refId as string))!;
      const linked = await linkAccount(storage, 
        session.json.sessionId as string,
        { profileId: profile.id, platform: 'bluesky', networkUserId: 'did:plc:1', displayName: 'Crash', username: 'crash', tokensEncrypted: null, linkedAt: Date.now() },
        Date.now(),
      );
      assert.equal(linked.stored, true);

      // The receiver accepts the request and never answers; the process dies while it waits.
      receiver.setMode('hold');
      const unlinked = await api('DELETE', '/profiles/social', { platform: 'bluesky' });
      assert.equal(unlinked.status, 200);
      const events = await eventually(() => storage.webhooks.listWebhookDeliveries(profile.id), (rows) => rows.length === 2);
      const ids = events.map((row) => row.id);
      assert.deepEqual(events.map((row) => JSON.parse(row.payload).event), ['link', 'unlink']);
      await receiver.waitFor((w) => w.answeredWith === null && ids.includes(w.headers['x-webhook-id'] as string));

      await killHard(child.process);
      child = null;
      const afterKill = await storage.webhooks.listWebhookDeliveries(profile.id);
      assert.ok(afterKill.some((row) => row.deliveredAt === null), 'an event was still undelivered when the process died');

      // Receiver healthy again (held connections are dropped), service restarted on the same data.
      await receiver.stop();
      receiver.setMode('ok');
      await receiver.start();
      child = await startChildService(env);

      for (const id of ids) {
        const webhook = await receiver.waitFor((w) => w.headers['x-webhook-id'] === id && w.answeredWith === 200, 20_000);
        assert.equal(JSON.parse(webhook.body).id, id);
      }
      const rows = await eventually(() => storage.webhooks.listWebhookDeliveries(profile.id), (r) => r.every((row) => row.deliveredAt !== null));
      assert.ok(rows.some((row) => row.attempts >= 2), 'the interrupted event was attempted again');
    } finally {
      await storage.close();
    }
  });
});
