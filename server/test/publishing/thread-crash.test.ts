/**
 * Issue 30, case 5: a twitter thread cut by a SIGKILL between two of its parts. The parts out so far are stored
 * before each next one, reconcile finds each part by identity (its text, replying to the part before), and the commit
 * resumes with the missing parts: the whole thread is on X, each part once, and the result names every part. The
 * code before recorded the first part alone as `success` (the rest never went out, with no warning).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { it } from 'node:test';
import { freePort, startChildService, type ChildService } from '../support/child-service.js';
import { stopChild } from '../support/stop-child.js';
import { SANDBOX_TWITTER_APP_HEADERS } from '../support/test-service.js';

const exited = (child: ChildService) =>
  new Promise<void>((resolve) => (child.process.exitCode !== null || child.process.signalCode !== null ? resolve() : child.process.once('exit', () => resolve())));

it('twitter thread killed between its parts: every part on X once, recorded with all part ids', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'slk-thread-crash-'));
  const env = { DATA_DIR: dataDir, PORT: String(await freePort()), HOST: '127.0.0.1', JOBS_POLL_MS: '20', JOBS_LEASE_MS: '1000', JOBS_RETRY_BASE_MS: '50', JOBS_RETRY_MAX_MS: '200' };
  let child = await startChildService({ ...env, PUBLISH_TEST_CRASH_AT: 'between-thread-parts' });
  const file = join(dataDir, 'social-link.db');
  try {
    const apiKey = readFileSync(join(dataDir, 'dev-api-key.txt'), 'utf8').trim();
    const call = (method: string, path: string, body?: unknown) =>
      fetch(`${child.url}/api${path}`, { method, headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json', ...SANDBOX_TWITTER_APP_HEADERS }, body: JSON.stringify(body) });
    assert.equal((await call('POST', '/sandbox/accounts', { platform: 'twitter' })).status, 200);
    const sentences = Array.from({ length: 24 }, (_, i) => `Sentence number ${i + 1} of a thread that is cut by a crash.`);
    await call('POST', '/post', { post: sentences.join(' '), platforms: ['twitter'] }).catch(() => null);
    await exited(child);
    child = await startChildService(env);
    let row: { status: string; network_post_id: string | null } | undefined;
    for (let polls = 0; polls < 500 && !(row && ['success', 'error'].includes(row.status)); polls++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      const reader = new Database(file, { readonly: true });
      try {
        row = reader.prepare('SELECT status, network_post_id FROM post_platforms').get() as typeof row;
      } finally {
        reader.close();
      }
    }
    const reader = new Database(file, { readonly: true });
    try {
      const tweets = reader.prepare("SELECT network_id, text FROM sandbox_posts WHERE platform = 'twitter' ORDER BY created_at, id").all() as { network_id: string; text: string }[];
      assert.ok(tweets.length >= 3, `a thread of several parts (${tweets.length})`);
      assert.equal(new Set(tweets.map((t) => t.text)).size, tweets.length, 'no part twice');
      assert.equal(tweets.map((t) => t.text).join(' '), sentences.join(' '), 'every part, in order');
      assert.equal(row?.status, 'success');
      assert.deepEqual(row?.network_post_id?.split(','), tweets.map((t) => t.network_id), 'the result names every part');
    } finally {
      reader.close();
    }
  } finally {
    await stopChild(child.process, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
});
