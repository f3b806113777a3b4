/**
 * Issue 30, case 4: a first comment is an irreversible call too. The service (a child process) is SIGKILLed right
 * after the network took the comment and before its id was recorded; after the restart the job finds the comment
 * under the post (same text, made after the call started) instead of commenting again: one comment, recorded as
 * `success` with its id. The code before commented again (2 comments on facebook, linkedin, bluesky and youtube;
 * on threads, whose conversation listing holds the audience's comments and not the account's own replies, too).
 * On threads an audience comment with the very same text arrives while the service is down: the look-up reads the
 * account's own replies (`/replies`), so it adopts exactly the comment it made. The comment's 20 s delay (spec 4.9
 * rule 5) is cut to 1 ms: what is proven here is the crash, not the wait.
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

const EXTRA: Record<string, (url: string) => Record<string, unknown>> = {
  threads: () => ({}),
  youtube: (url) => ({ mediaUrls: [`${url}/sandbox/media/video-3s.mp4`], isVideo: true, youTubeOptions: { title: 'First comment crash' } }),
};

describe('a first comment across a SIGKILL after the network took it (issue 30, case 4)', { concurrency: 2 }, () => {
  for (const platform of ['facebook', 'linkedin', 'bluesky', 'youtube', 'threads']) {
    it(`${platform}: one comment, recorded with its id`, async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'slk-comment-crash-'));
      const env = { DATA_DIR: dataDir, PORT: String(await freePort()), HOST: '127.0.0.1', JOBS_POLL_MS: '20', JOBS_LEASE_MS: '1000', JOBS_RETRY_BASE_MS: '50', JOBS_RETRY_MAX_MS: '200', PUBLISH_FIRST_COMMENT_DELAY_MS: '1' };
      let child = await startChildService({ ...env, PUBLISH_TEST_CRASH_AT: 'inside-first-comment' });
      const file = join(dataDir, 'social-link.db');
      try {
        const apiKey = readFileSync(join(dataDir, 'dev-api-key.txt'), 'utf8').trim();
        const call = (method: string, path: string, body?: unknown) =>
          fetch(`${child.url}/api${path}`, { method, headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
        assert.equal((await call('POST', '/sandbox/accounts', { platform })).status, 200);
        const comment = `The first comment under the ${platform} post`;
        // The answer waits for the first comment (spec 4.9.5), so the process dies during the request: no answer.
        await call('POST', '/post', { post: `A ${platform} post with a first comment`, platforms: [platform], firstComment: { comment }, ...EXTRA[platform]?.(child.url) }).catch(() => null);
        await exited(child);
        if (platform === 'threads') {
          // Someone in the audience comments the same words while the service is down.
          const writer = new Database(file);
          try {
            const post = writer.prepare(`SELECT id FROM sandbox_posts WHERE platform = 'threads' AND client_key IS NULL`).get() as { id: string };
            writer.prepare('INSERT INTO sandbox_comments (id, post_id, text, media, created_at, author, reply_to) VALUES (?, ?, ?, ?, ?, ?, NULL)').run('sbc_audience_twin', post.id, comment, '[]', Date.now(), 'someone');
          } finally {
            writer.close();
          }
        }
        child = await startChildService(env);
        let stored: { status?: string; id?: string } = {};
        for (let polls = 0; polls < 3000 && stored.status !== 'success' && stored.status !== 'error'; polls++) {
          await new Promise((resolve) => setTimeout(resolve, 20));
          const reader = new Database(file, { readonly: true });
          try {
            stored = JSON.parse((reader.prepare('SELECT first_comment FROM post_platforms').get() as { first_comment: string | null }).first_comment ?? '{}');
          } finally {
            reader.close();
          }
        }
        const reader = new Database(file, { readonly: true });
        try {
          // A bluesky or threads comment is a reply record (a post of its own; a threads container, `threads:container`,
          // is not); the other networks keep comments apart.
          const comments = reader.prepare('SELECT id FROM sandbox_comments WHERE text = ? AND author IS NULL').all(comment) as { id: string }[];
          const replies = reader.prepare(`SELECT network_id AS id FROM sandbox_posts WHERE text = ? AND platform NOT LIKE '%:%'`).all(comment) as { id: string }[];
          assert.equal(comments.length + replies.length, 1, `one comment on ${platform}`);
          assert.equal(stored.status, 'success', JSON.stringify(stored));
          assert.equal(typeof stored.id, 'string');
          if (platform === 'threads') assert.equal(stored.id, replies[0]?.id, "the account's own reply, not the audience's equal comment");
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
