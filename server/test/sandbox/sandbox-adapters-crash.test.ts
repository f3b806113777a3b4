/**
 * Crash safety of the bluesky, telegram, twitter, linkedin and tiktok adapters through the real engine: the service runs as a child process,
 * is SIGKILLed at a publish step (PUBLISH_TEST_CRASH_AT), and restarts on the same data directory.
 * - bluesky: the record key makes reconcile a getRecord, so the post ends `success` and is on the PDS exactly once,
 *   whether the crash came before or after the createRecord call.
 * - telegram: no message lookup exists, so the attempt ends as "outcome unknown" and is never sent again: the
 *   message is on the channel at most once (once when the crash followed the send, not at all when it preceded it).
 *   tiktok likewise (an init cannot be looked up): its video is sent at most once; killed before the init, it
 *   publishes normally after the restart.
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, it } from 'node:test';
import { freePort, startChildService } from '../support/child-service.js';
import { SANDBOX_TWITTER_APP_HEADERS } from '../support/test-service.js';

function killHard(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));
}

const CASES = [
  { platform: 'bluesky', crashAt: 'after-commit-started', status: 'success', onNetwork: 1 },
  { platform: 'bluesky', crashAt: 'after-commit', status: 'success', onNetwork: 1 },
  { platform: 'telegram', crashAt: 'after-commit-started', status: 'error', onNetwork: 0 },
  { platform: 'telegram', crashAt: 'after-commit', status: 'error', onNetwork: 1 },
  // twitter: reconcile reads the user's recent tweets; a commit that never reached X runs once more.
  { platform: 'twitter', crashAt: 'after-commit-started', status: 'success', onNetwork: 1 },
  { platform: 'twitter', crashAt: 'after-commit', status: 'success', onNetwork: 1 },
  // linkedin: reconcile reads the author's recent posts (GET /rest/posts?q=author) for the same commentary.
  { platform: 'linkedin', crashAt: 'after-commit-started', status: 'success', onNetwork: 1 },
  { platform: 'linkedin', crashAt: 'after-commit', status: 'success', onNetwork: 1 },
  // tiktok: an init cannot be looked up by a key of ours, so like telegram the attempt ends "outcome unknown" and is
  // never sent again (a video on the account at most once); a crash before the init publishes normally.
  { platform: 'tiktok', crashAt: 'after-prepare', status: 'pending', onNetwork: 1 },
  { platform: 'tiktok', crashAt: 'after-commit-started', status: 'error', onNetwork: 0 },
  { platform: 'tiktok', crashAt: 'after-commit', status: 'error', onNetwork: 1 },
] as const;

/** What each network needs besides the text (tiktok publishes a video). */
const EXTRA_FIELDS: Partial<Record<(typeof CASES)[number]['platform'], (url: string) => Record<string, unknown>>> = {
  tiktok: (url) => ({ mediaUrls: [`${url}/sandbox/media/video-3s.mp4`], isVideo: true, tikTokOptions: { visibility: 'public' } }),
};

describe('bluesky, telegram, twitter, linkedin and tiktok attempts across a SIGKILL', () => {
  for (const testCase of CASES) {
    it(`${testCase.platform}, killed ${testCase.crashAt}: ${testCase.status}, ${testCase.onNetwork} on the network`, async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'slk-adapter-crash-'));
      // One port across the restart: media on the service's own origin stays reachable for the restarted service.
      const env = { DATA_DIR: dataDir, PORT: String(await freePort()), HOST: '127.0.0.1', JOBS_POLL_MS: '20', JOBS_LEASE_MS: '1000', JOBS_RETRY_BASE_MS: '50', JOBS_RETRY_MAX_MS: '200' };
      let child = await startChildService({ ...env, PUBLISH_TEST_CRASH_AT: testCase.crashAt });
      try {
        const apiKey = readFileSync(join(dataDir, 'dev-api-key.txt'), 'utf8').trim();
        const call = (url: string, method: string, path: string, body?: unknown) =>
          fetch(`${url}/api${path}`, { method, headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json', ...SANDBOX_TWITTER_APP_HEADERS }, body: body === undefined ? undefined : JSON.stringify(body) });
        assert.equal((await call(child.url, 'POST', '/sandbox/accounts', { platform: testCase.platform })).status, 200);
        const text = `crash test ${testCase.platform} ${testCase.crashAt}`;
        // The immediate post runs its attempt inside the request; the process dies during it.
        await call(child.url, 'POST', '/post', { post: text, platforms: [testCase.platform], ...EXTRA_FIELDS[testCase.platform]?.(child.url) }).catch(() => null);
        await exited(child.process);
        child = await startChildService(env);

        const db = () => new Database(join(dataDir, 'social-link.db'), { readonly: true });
        let status = '';
        const settled = (value: string) => value === 'success' || value === 'error' || (value === 'pending' && testCase.status === 'pending');
        for (let polls = 0; polls < 500 && !settled(status); polls++) {
          const reader = db();
          try {
            status = (reader.prepare('SELECT status FROM posts').get() as { status?: string } | undefined)?.status ?? '';
          } finally {
            reader.close();
          }
          if (!settled(status)) await new Promise((resolve) => setTimeout(resolve, 20));
        }
        assert.equal(status, testCase.status);
        const reader = db();
        try {
          // tiktok keeps each publish (init) apart from the public video that processing makes of it.
          const sent = testCase.platform === 'tiktok' ? 'tiktok:publish' : testCase.platform;
          const onNetwork = reader.prepare('SELECT COUNT(*) AS n FROM sandbox_posts WHERE platform = ? AND text = ?').get(sent, text) as { n: number };
          assert.equal(onNetwork.n, testCase.onNetwork);
          if (testCase.platform === 'telegram' || (testCase.platform === 'tiktok' && testCase.status === 'error')) {
            const attempt = reader.prepare('SELECT * FROM post_platforms').get() as Record<string, unknown>;
            assert.match(JSON.stringify(attempt), testCase.platform === 'telegram' ? /at most once/ : /not sent again/);
          }
        } finally {
          reader.close();
        }
      } finally {
        await killHard(child.process);
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
  }
});
