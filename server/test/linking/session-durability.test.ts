/**
 * What an answer promises survives a crash: link sessions created concurrently (so their writes share group
 * commits) and a linked account are all in the database after a SIGKILL that comes right after their answers,
 * with more creates still in flight. The service runs as a child process on a real SQLite file.
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SqliteStorage } from '../../src/storage/sqlite.js';
import { connectAccount } from '../support/oauth-driver.js';
import { freePort, startChildService } from '../support/child-service.js';
import { stopChild } from '../support/stop-child.js';
import { tokenOf } from '../support/test-service.js';

const API_KEY = `sk_durable_${'d'.repeat(40)}`;

describe('durability of answered writes across a SIGKILL', () => {
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  let url: string;
  let child: ChildProcess | null = null;

  const createSession = async (): Promise<{ sessionId: string; url: string } | null> => {
    try {
      const response = await fetch(`${url}/api/profiles/link-sessions`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${API_KEY}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ origin: 'https://app.example', expiresIn: 30 }),
      });
      return response.status === 200 ? ((await response.json()) as { sessionId: string; url: string }) : null;
    } catch {
      return null; // cut off by the kill: never answered, so nothing was promised
    }
  };
  const openDatabase = () => new SqliteStorage(join(dataDir, 'social-link.db'));

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'slk-durability-'));
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    env = { DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', API_KEY, SANDBOX_NETWORKS: 'all', RATE_LIMIT_SESSION_CREATE_PER_MINUTE: '100000' };
    child = (await startChildService(env)).process;
  });
  after(async () => {
    if (child) await stopChild(child, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('every session answered before the kill is stored, with creates still in flight', async () => {
    const answered: string[] = [];
    let killed!: Promise<void>;
    const enough = new Promise<void>((resolve) => {
      const creates = Array.from({ length: 300 }, () =>
        createSession().then((created) => {
          if (!created) return;
          answered.push(created.sessionId);
          if (answered.length === 100) resolve();
        }),
      );
      void Promise.all(creates).then(() => resolve());
    });
    await enough;
    killed = stopChild(child!, 'SIGKILL');
    // Copied now: answers that arrive after the kill was sent may be cut off mid-way, so only these are checked.
    const promised = [...answered];
    await killed;
    child = null;

    const storage = openDatabase();
    try {
      const missing: string[] = [];
      for (const id of promised) if (!(await storage.linking.findLinkSessionById(id))) missing.push(id);
      assert.deepEqual(missing, [], `${missing.length} of ${promised.length} answered sessions lost`);
      assert.ok(promised.length >= 100);
    } finally {
      await storage.close();
    }
  });

  it('an account whose connection was answered as linked is stored after a SIGKILL', async () => {
    child = (await startChildService(env)).process;
    const created = await createSession();
    assert.ok(created);
    const result = await connectAccount({ url }, tokenOf(created.url), 'linkedin');
    assert.equal(result.data.outcome, 'success', result.html);
    await stopChild(child, 'SIGKILL');
    child = null;

    const storage = openDatabase();
    try {
      const session = await storage.linking.findLinkSessionById(created.sessionId);
      assert.deepEqual(session?.completedNetworks, ['linkedin']);
      assert.ok(await storage.linking.findSocialAccount(session.profileId, 'linkedin'));
    } finally {
      await storage.close();
    }
  });
});
