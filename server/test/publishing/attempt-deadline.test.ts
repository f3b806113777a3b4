/**
 * Issue 30, "every state has a deadline": an attempt that keeps throwing (here the account's stored tokens cannot be
 * opened, inside the commit and then inside every reconcile) ends on its last attempt as `unconfirmed` naming the
 * cause, and the post gets its final status. The code before failed the job and left the post `processing` for ever.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TestService } from '../support/test-service.js';
import { FAST_JOBS, linkSandboxAccounts, startPublishingService } from './publishing-fixtures.js';

let svc: TestService;
before(async () => {
  svc = await startPublishingService({ env: { ...FAST_JOBS, JOBS_MAX_ATTEMPTS: '3' } });
  await linkSandboxAccounts(svc, ['facebook']);
});
after(() => svc.close());

test('an attempt that throws on every try ends as an error on its last one; the post is not left processing', async () => {
  // Tokens sealed for another account: opening them throws before any network call.
  await svc.sql(`UPDATE social_accounts SET tokens_encrypted = ? WHERE platform = 'facebook'`, ['v1.AAAAAAAAAAAAAAAA.BBBBBBBBBBBBBBBBBBBBBB.CCCCCCCCCCCCCCCCCCCCCC']);
  const created = await svc.api('POST', '/post', { body: { post: 'A post whose tokens cannot be opened', platforms: ['facebook'] } });
  const id = created.json.id as string;
  assert.equal(typeof id, 'string', JSON.stringify(created.json));
  let post: Record<string, any> = {};
  // A deadline of real time, not of steps: 200 steps were about 6 s, which a loaded machine's worker (polling on real
  // time, pausing its claims while the loop lags) could need for three attempts.
  const end = Date.now() + 30_000;
  while (!['success', 'error'].includes(post.status) && Date.now() < end) {
    // Service time passes (leases and retry delays); the worker polls on real time.
    svc.clock.advance(2_000);
    await sleep(30);
    post = (await svc.api('GET', `/post/${id}`)).json;
  }
  assert.equal(post.status, 'error', JSON.stringify(post));
  const { rows } = await svc.sql('SELECT status, error FROM post_platforms WHERE post_id = ?', [id]);
  assert.equal(rows[0]!.status, 'error');
  // The commit itself opened the tokens, so it had started: the outcome is unconfirmed, never a second commit.
  const error = JSON.parse(String(rows[0]!.error)) as { code: number; message: string; details?: { outcome?: string } };
  assert.equal(error.details?.outcome, 'unknown');
  assert.match(error.message, /after 3 attempts: Unreadable token envelope/);
});
