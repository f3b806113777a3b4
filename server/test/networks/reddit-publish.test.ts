/**
 * The real reddit adapter against the sandbox reddit API of a real service on loopback, through `POST /api/post`:
 * self posts in markdown and link posts with `redditOptions`, the title rules, 442 and 443 from `json.errors`,
 * RATELIMIT retried after reddit's wait, reconcile by the user's submissions, delete; and reddit's recorded error
 * answers classified one by one.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { PreparedState, PublishDone, PublishFailure } from '../../src/networks/publish-adapter.js';
import { classifyRedditError } from '../../src/networks/reddit/classify.js';
import { redditPublishAdapter as adapter } from '../../src/networks/reddit/publish.js';
import type { RedditAnswer } from '../../src/networks/reddit/reddit-api.js';
import { linkSandboxAccounts, sandboxPostsFor, startPublishingService } from '../publishing/publishing-fixtures.js';
import { linkSandboxAccount } from '../sandbox/sandbox-adapter-context.js';
import type { TestService } from '../support/test-service.js';

describe('reddit adapter against the sandbox reddit API', () => {
  let svc: TestService;
  let n = 0;
  const fresh = (text: string) => `${text} #${++n}`;
  before(async () => {
    svc = await startPublishingService();
    await linkSandboxAccounts(svc, ['reddit', 'facebook']);
  });
  after(() => svc.close());

  const post = (body: Record<string, unknown>) => svc.api('POST', '/post', { body: { platforms: ['reddit'], ...body } });
  const errorOf = (json: Record<string, any>) => json.errors?.find((e: any) => e.platform === 'reddit') ?? json;

  it('a self post in markdown and a link post; the post URL shows it', async () => {
    const self = await post({ post: 'Some <b>bold</b> news', redditOptions: { title: fresh('A title'), subreddit: 'r/test' } });
    assert.equal(self.json.status, 'success', JSON.stringify(self.json));
    const entry = self.json.postIds[0];
    assert.match(entry.id, /^t3_[a-z0-9]+$/);
    const [row] = await sandboxPostsFor(svc, self.json.id, 'reddit');
    const record = JSON.parse(row.record);
    assert.deepEqual([record.subreddit, record.kind], ['test', 'self']);
    assert.match(record.selftext, /\*\*bold\*\*/);
    assert.equal((await fetch(entry.postUrl)).status, 200);

    const link = await post({ post: 'see link', redditOptions: { title: fresh('A link'), subreddit: 'test', link: 'https://example.com/article' } });
    assert.equal(link.json.status, 'success', JSON.stringify(link.json));
    const [linkRow] = await sandboxPostsFor(svc, link.json.id, 'reddit');
    assert.deepEqual([JSON.parse(linkRow.record).kind, JSON.parse(linkRow.record).url], ['link', 'https://example.com/article']);
  });

  it('bad options are refused with 101 and the platform named; a scheduled post is not created at all', async () => {
    for (const redditOptions of [{ subreddit: 'test' }, { title: 'x'.repeat(301), subreddit: 'test' }, { title: 't', subreddit: 'no spaces' }, { title: 't', subreddit: 'test', nsfw: 'yes' }]) {
      const answer = await post({ post: fresh('bad options'), platforms: ['reddit', 'facebook'], redditOptions, scheduleDate: '2027-01-01T10:00:00Z' });
      assert.equal(answer.status, 400, JSON.stringify(answer.json));
      assert.equal(answer.json.code, 101);
      assert.match(answer.json.message, /reddit/);
    }
  });

  it('442 banned from the community, 443 a disallowed title word; neither retryable', async () => {
    const banned = await post({ post: fresh('text'), redditOptions: { title: fresh('hello'), subreddit: 'sandbox_banned' } });
    assert.deepEqual([errorOf(banned.json).code, errorOf(banned.json).retryAvailable], [442, false], JSON.stringify(banned.json));
    const marked = await post({ post: fresh('text'), redditOptions: { title: fresh('hello [[fault:442]]'), subreddit: 'test' } });
    assert.equal(errorOf(marked.json).code, 442);
    const word = await post({ post: fresh('text'), redditOptions: { title: fresh('bad word [[fault:443]]'), subreddit: 'test' } });
    assert.deepEqual([errorOf(word.json).code, errorOf(word.json).retryAvailable], [443, false], JSON.stringify(word.json));
  });

  it('RATELIMIT is retried after the wait reddit names', async () => {
    const linked = await linkSandboxAccount(svc, 'reddit');
    const ctx = linked.context(`${svc.url}/sandbox/reddit`, { text: 'x', options: { title: fresh('busy [[fault:429]]'), subreddit: 'test' } });
    const limited = (await adapter.commit(ctx, (await adapter.prepare(ctx, null)) as PreparedState)) as PublishFailure;
    assert.deepEqual([limited.code, limited.retryAvailable, limited.retryAfterMs], [429, true, 9 * 60_000]);
  });

  it('reconcile finds the submission an interrupted commit made, and nothing when the commit never ran; delete removes it', async () => {
    const linked = await linkSandboxAccount(svc, 'reddit');
    const base = `${svc.url}/sandbox/reddit`;
    const ctx = linked.context(base, { text: 'body', options: { title: fresh('made before the crash'), subreddit: 'test' } });
    const prepared = (await adapter.prepare(ctx, null)) as PreparedState;
    const done = (await adapter.commit(ctx, prepared)) as PublishDone;
    assert.equal(done.kind, 'done', JSON.stringify(done));
    assert.equal(((await adapter.reconcile(ctx, prepared)) as PublishDone).id, done.id);
    const never = linked.context(base, { text: 'body', options: { title: fresh('never sent'), subreddit: 'test' } });
    assert.equal(await adapter.reconcile(never, (await adapter.prepare(never, null)) as PreparedState), null);
    assert.equal(await adapter.remove!(ctx, done.id), true);
    assert.equal(await adapter.reconcile(ctx, prepared), null);
  });

  it('DELETE /api/post deletes it on reddit', async () => {
    const created = await post({ post: fresh('to delete'), redditOptions: { title: fresh('delete me'), subreddit: 'test' } });
    assert.equal(created.json.status, 'success', JSON.stringify(created.json));
    assert.equal((await svc.api('DELETE', '/post', { body: { id: created.json.id } })).status, 200);
    const [row] = await sandboxPostsFor(svc, created.json.id, 'reddit');
    assert.notEqual(row.deleted_at, null);
  });
});

describe('classifyRedditError on recorded reddit answers', () => {
  const answer = (status: number, json: Record<string, unknown>, headers: Record<string, string> = {}): RedditAnswer => ({ status, json, headers: new Headers(headers) });
  const errors = (...list: unknown[][]) => answer(200, { json: { errors: list } });
  it('maps each answer to its code', () => {
    const cases: [RedditAnswer, number, boolean, boolean][] = [
      [errors(['SUBREDDIT_NOTALLOWED', "you aren't allowed to post there.", 'sr']), 442, false, false],
      [errors(['SUBMIT_VALIDATION_TITLE_BLACKLISTED_STRING', 'Your post title contains a word that is not allowed.', 'title']), 443, false, false],
      [errors(['RATELIMIT', "Looks like you've been doing that a lot. Take a break for 3 minutes before trying again.", 'ratelimit']), 429, true, false],
      [errors(['SUBREDDIT_NOEXIST', "that community doesn't exist", 'sr']), 101, false, false],
      [errors(['TOO_LONG', 'this is too long (max: 300)', 'title']), 101, false, false],
      [answer(401, { message: 'Unauthorized', error: 401 }), 401, false, true],
      [answer(403, { message: 'Forbidden', error: 403 }), 442, false, false],
      [answer(429, { message: 'Too Many Requests', error: 429 }, { 'x-ratelimit-reset': '42' }), 429, true, false],
      [answer(503, { message: 'Service Unavailable' }), 500, true, false],
      [{ status: 0, json: {}, headers: new Headers(), transportError: 'ECONNRESET' }, 500, true, false],
    ];
    for (const [input, code, retry, relink] of cases) {
      const failure = classifyRedditError(input);
      assert.deepEqual([failure.code, failure.retryAvailable, failure.relink], [code, retry, relink], JSON.stringify(input.json));
    }
    assert.equal(classifyRedditError(cases[2]![0]).retryAfterMs, 3 * 60_000);
    assert.equal(classifyRedditError(cases[7]![0]).retryAfterMs, 42_000);
  });
});
