/**
 * Issue 30, case 6 (a sandbox fidelity bug): Instagram and Threads publish a container atomically, so must their
 * sandboxes. The service (a child process, sandbox included) is SIGKILLed inside the sandbox's container publish,
 * after the post row was written and before the container recorded it. With one transaction nothing of that publish
 * survives, reconcile sees an unpublished container and the commit runs once more: the post is on the network once.
 * The two writes before left the post beside a container still FINISHED, and the second commit made a duplicate.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, it } from 'node:test';
import { freePort, startChildService, type ChildService } from '../support/child-service.js';
import { stopChild } from '../support/stop-child.js';

const exited = (child: ChildService) =>
  new Promise<void>((resolve) => (child.process.exitCode !== null || child.process.signalCode !== null ? resolve() : child.process.once('exit', () => resolve())));

describe('a container publish killed half way (issue 30, case 6)', () => {
  for (const platform of ['instagram', 'threads'] as const) {
    it(`${platform}: the post is on the network once`, async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'slk-container-crash-'));
      // A takeover whose lookup finds nothing waits until the killed send could no longer be answered (the outbound
      // time limit + 2 s, lease-held-call.ts): a short limit keeps that wait short.
      const env = { DATA_DIR: dataDir, PORT: String(await freePort()), HOST: '127.0.0.1', JOBS_POLL_MS: '20', JOBS_LEASE_MS: '1000', JOBS_RETRY_BASE_MS: '50', JOBS_RETRY_MAX_MS: '200', OUTBOUND_TIMEOUT_MS: '3000' };
      let child = await startChildService({ ...env, PUBLISH_TEST_CRASH_AT: 'inside-container-publish' });
      const file = join(dataDir, 'social-link.db');
      try {
        const apiKey = readFileSync(join(dataDir, 'dev-api-key.txt'), 'utf8').trim();
        const call = (method: string, path: string, body?: unknown) =>
          fetch(`${child.url}/api${path}`, { method, headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
        assert.equal((await call('POST', '/sandbox/accounts', { platform })).status, 200);
        const text = `A ${platform} post published through a container`;
        await call('POST', '/post', { post: text, platforms: [platform], ...(platform === 'instagram' && { mediaUrls: [`${child.url}/sandbox/media/photo.jpg`] }) }).catch(() => null);
        await exited(child);
        child = await startChildService(env);
        let status = '';
        for (let polls = 0; polls < 1000 && status !== 'success' && status !== 'error'; polls++) {
          await new Promise((resolve) => setTimeout(resolve, 20));
          const reader = new Database(file, { readonly: true });
          try {
            status = (reader.prepare('SELECT status FROM post_platforms').get() as { status: string }).status;
          } finally {
            reader.close();
          }
        }
        const reader = new Database(file, { readonly: true });
        try {
          const copies = reader.prepare('SELECT network_id FROM sandbox_posts WHERE platform = ? AND text = ?').all(platform, text);
          assert.equal(copies.length, 1, `one ${platform} post: ${JSON.stringify(copies)}`);
          assert.equal(status, 'success');
        } finally {
          reader.close();
        }
      } finally {
        await stopChild(child.process, 'SIGKILL');
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
  }
});
