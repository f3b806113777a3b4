/**
 * Crash safety of the gmb and snapchat adapters through the real engine: the service runs as a child process, is
 * SIGKILLed right after recording "commit started" or right after the commit (PUBLISH_TEST_CRASH_AT), and restarts
 * on the same data directory. Reconcile looks the post up (gmb: the location's local posts with the same summary;
 * snapchat: the profile's stories holding the prepared media id), so the post ends `success` and is on the network
 * exactly once either way.
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, it } from 'node:test';
import { startChildService } from '../support/child-service.js';

function killHard(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

const exited = (child: ChildProcess) => new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));

const CASES = [
  { platform: 'gmb', crashAt: 'after-commit-started' },
  { platform: 'gmb', crashAt: 'after-commit' },
  { platform: 'snapchat', crashAt: 'after-commit-started' },
  { platform: 'snapchat', crashAt: 'after-commit' },
] as const;

describe('gmb and snapchat attempts across a SIGKILL', () => {
  for (const testCase of CASES) {
    it(`${testCase.platform}, killed ${testCase.crashAt}: success, once on the network`, async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'slk-gmbsnap-crash-'));
      const env = { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', JOBS_POLL_MS: '20', JOBS_LEASE_MS: '1000', JOBS_RETRY_BASE_MS: '50', JOBS_RETRY_MAX_MS: '200' };
      let child = await startChildService({ ...env, PUBLISH_TEST_CRASH_AT: testCase.crashAt });
      try {
        const apiKey = readFileSync(join(dataDir, 'dev-api-key.txt'), 'utf8').trim();
        const call = (url: string, method: string, path: string, body?: unknown) =>
          fetch(`${url}/api${path}`, { method, headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
        assert.equal((await call(child.url, 'POST', '/sandbox/accounts', { platform: testCase.platform })).status, 200);
        const text = `crash test ${testCase.platform} ${testCase.crashAt}`;
        const media = testCase.platform === 'snapchat' ? { mediaUrls: [`${child.url}/sandbox/media/photo.jpg`] } : {};
        // The immediate post runs its attempt inside the request; the process dies during it.
        await call(child.url, 'POST', '/post', { post: text, platforms: [testCase.platform], ...media }).catch(() => null);
        await exited(child.process);
        child = await startChildService(env);

        const read = <T>(sql: string, ...params: unknown[]): T => {
          const reader = new Database(join(dataDir, 'social-link.db'), { readonly: true });
          try {
            return reader.prepare(sql).get(...params) as T;
          } finally {
            reader.close();
          }
        };
        let status = '';
        for (let polls = 0; polls < 500 && status !== 'success' && status !== 'error'; polls++) {
          status = read<{ status?: string } | undefined>('SELECT status FROM posts')?.status ?? '';
          if (status !== 'success' && status !== 'error') await new Promise((resolve) => setTimeout(resolve, 20));
        }
        assert.equal(status, 'success', JSON.stringify(read('SELECT * FROM post_platforms')) + (process.env.DEBUG_CRASH ? child.logs.join('') + JSON.stringify(read("SELECT * FROM jobs WHERE kind <> 'analytics-snapshot'")) + JSON.stringify(read('SELECT id, status, request FROM posts')) : ''));
        assert.equal(read<{ n: number }>('SELECT COUNT(*) AS n FROM sandbox_posts WHERE platform = ? AND deleted_at IS NULL', testCase.platform).n, 1);
      } finally {
        await killHard(child.process);
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
  }
});
