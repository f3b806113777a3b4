/**
 * Connections across restarts and crashes (checklist J.42-43): the service runs as a child process
 * (`server/src/main.ts`) on a fixed port and data directory. An attempt started before a restart still works
 * after it; a SIGKILL while the callback is being handled leaves either the whole link or nothing, and the
 * session can be retried; provider tokens written before a restart still decrypt with the persisted dev key.
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createLinkClient } from '../../../src/client/index.js';
import { SqliteStorage } from '../../src/storage/sqlite.js';
import { callback, connectAccount, consent, openStartUrl, requestStartUrl, sessionView } from '../support/oauth-driver.js';
import { freePort, startChildService } from '../support/child-service.js';
import { stopChild } from '../support/stop-child.js';
import { tokenOf } from '../support/test-service.js';

const API_KEY = `sk_restart_${'r'.repeat(40)}`;

const stop = stopChild;

describe('connections across restarts and crashes', () => {
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  let url: string;
  let child: ChildProcess | null = null;
  const service = () => ({ url });
  const client = () => createLinkClient({ baseUrl: `${url}/api`, apiKey: API_KEY });

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'slk-connect-restart-'));
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    // No TOKEN_ENCRYPTION_KEY: the dev key file in the data dir must carry over restarts.
    env = { DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', API_KEY, SANDBOX_NETWORKS: 'all', TOKEN_ENCRYPTION_KEY: '' };
    child = (await startChildService(env)).process;
  });
  after(async () => {
    if (child) await stop(child, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('an attempt started before a restart (SIGTERM) completes after it', async () => {
    const link = await client().createLinkSession({ origin: 'https://app.example', expiresIn: 30 });
    const token = tokenOf(link.url);
    const startUrl = await requestStartUrl(service(), token, 'facebook');
    await stop(child!, 'SIGTERM');
    child = (await startChildService(env)).process;
    const attempt = await openStartUrl(startUrl);
    const result = await callback(await consent(service(), attempt, 'allow'), attempt.cookie);
    assert.equal(result.data.outcome, 'success', result.html);
    assert.deepEqual((await sessionView(service(), token)).json.completedNetworks, ['facebook']);
  });

  // Killed at different moments of the callback: before the exchange, around it, around the commit.
  for (const [delayMs, platform] of [[0, 'linkedin'], [8, 'youtube'], [20, 'reddit']] as const) {
    it(`a SIGKILL ${delayMs} ms into the callback leaves the whole link or nothing; the session can be retried (${platform})`, async () => {
      const link = await client().createLinkSession({ origin: 'https://app.example', expiresIn: 30 });
      const token = tokenOf(link.url);
      const attempt = await openStartUrl(await requestStartUrl(service(), token, platform));
      const callbackUrl = await consent(service(), attempt, 'allow');
      const inFlight = fetch(callbackUrl, { headers: { Cookie: attempt.cookie } }).catch(() => null);
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      await stop(child!, 'SIGKILL');
      await inFlight;
      child = null;

      // The database as the crash left it: the account and the session's completion go together.
      const storage = new SqliteStorage(join(dataDir, 'social-link.db'));
      try {
        const session = await storage.linking.findLinkSessionById(link.sessionId);
        const account = await storage.linking.findSocialAccount(session!.profileId, platform);
        const completed = session!.completedNetworks.includes(platform);
        assert.equal(account !== null, completed, 'half-written link: account and session completion disagree');
      } finally {
        await storage.close();
      }

      child = (await startChildService(env)).process;
      // Whatever the crash left, the same session can connect the network again.
      const retry = await connectAccount(service(), token, platform);
      assert.equal(retry.data.outcome, 'success', retry.html);
      assert.ok((await sessionView(service(), token)).json.completedNetworks.includes(platform));
    });
  }
});
