/**
 * Issue 30, every state has a deadline: work whose job is gone (failed, lost, cancelled) is ended by the watchdog
 * within a minute of the service clock, with a code and a webhook; work with a live job is left alone. The lost
 * jobs are made by hand in the real database (SQLite, or PostgreSQL with TEST_DATABASE_URL); the service, the
 * sandbox networks and the webhook receiver are real, on loopback. Before the watchdog, each of these posts stayed
 * `processing` or `pending` (or its comment `pending`) for ever.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { JOB_PUBLISH_WATCHDOG } from '../../src/publishing/publish-watchdog.js';
import type { TestService } from '../support/test-service.js';
import type { WebhookReceiver } from '../support/webhook-receiver.js';
import { startWithReceiver, closeWithReceiver } from '../webhooks/fixtures.js';
import { linkSandboxAccounts, startPublishingService, waitForPost } from './publishing-fixtures.js';

describe('the publish watchdog', () => {
  let svc: TestService;
  let receiver: WebhookReceiver;
  before(async () => {
    ({ svc, receiver } = await startWithReceiver(startPublishingService));
    await linkSandboxAccounts(svc, ['bluesky']);
    const registered = await svc.api('POST', '/hook/webhook', { body: { action: 'scheduled', url: receiver.url, secret: 'watchdog-test' } });
    assert.equal(registered.status, 200, JSON.stringify(registered.json));
  });
  after(() => closeWithReceiver(svc, receiver));

  const inAnHour = () => new Date(svc.clock() + 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  /** A scheduled post whose publish job is lost once the post started processing. */
  const lostScheduledPost = async (text: string, commitStarted: boolean) => {
    const created = await svc.api('POST', '/post', { body: { post: text, platforms: ['bluesky'], scheduleDate: inAnHour() } });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    const id = created.json.id as string;
    await svc.sql("UPDATE jobs SET failed_at = ?, last_error = 'lost' WHERE subject = ? AND kind = 'publish'", [svc.clock(), id]);
    await svc.sql("UPDATE posts SET status = 'processing' WHERE id = ?", [id]);
    if (commitStarted) await svc.sql("UPDATE post_platforms SET status = 'processing', commit_started_at = ? WHERE post_id = ?", [svc.clock(), id]);
    return id;
  };
  const hookFor = (id: string, match: (body: Record<string, any>) => boolean) =>
    receiver.waitFor((request) => {
      const body = JSON.parse(request.body) as Record<string, any>;
      return body.id === id && match(body);
    }, 15_000);

  it('a processing platform with no live job and no commit: error 500 `stuck`, the post ends, a webhook says so', async () => {
    const id = await lostScheduledPost('Watchdog: lost before the commit', false);
    svc.clock.advance(61_000);
    const post = await waitForPost(svc, id, (p) => p.status !== 'processing');
    assert.equal(post.status, 'error', JSON.stringify(post));
    const hook = JSON.parse((await hookFor(id, (body) => body.status === 'error')).body) as Record<string, any>;
    assert.equal(hook.errors[0].code, 500);
    assert.equal(hook.errors[0].details.outcome, 'stuck');
    assert.equal((await svc.sql("SELECT COUNT(*) AS n FROM sandbox_posts WHERE text = 'Watchdog: lost before the commit'")).rows[0]!.n, 0);
  });

  it('a started commit whose job is gone: unconfirmed (outcome unknown) with its webhook, never sent again', async () => {
    const id = await lostScheduledPost('Watchdog: lost after the commit started', true);
    svc.clock.advance(61_000);
    const post = await waitForPost(svc, id, (p) => p.status !== 'processing');
    assert.equal(post.status, 'error');
    const hook = JSON.parse((await hookFor(id, (body) => body.subAction === 'unconfirmed')).body) as Record<string, any>;
    assert.equal(hook.errors[0].details.outcome, 'unknown');
  });

  it('a pending platform whose status check is gone, and a pending first comment whose job is gone, end', async () => {
    const created = await svc.api('POST', '/post', { body: { post: 'Watchdog: pending ends', platforms: ['bluesky'], firstComment: { comment: 'a comment' } } });
    assert.equal(created.json.status, 'success', JSON.stringify(created.json));
    const id = created.json.id as string;
    await waitForPost(svc, id, (p) => p.postIds[0].firstComment?.status === 'success');
    // The first comment lost its job before the call; the platform waits on a status check that no longer exists.
    await svc.sql(`UPDATE post_platforms SET first_comment = '{"status":"pending"}' WHERE post_id = ?`, [id]);
    const other = await svc.api('POST', '/post', { body: { post: 'Watchdog: processing never confirmed', platforms: ['bluesky'] } });
    const otherId = other.json.id as string;
    await svc.sql("UPDATE posts SET status = 'pending' WHERE id = ?", [otherId]);
    await svc.sql("UPDATE post_platforms SET status = 'pending', finished_at = NULL, commit_started_at = ? WHERE post_id = ?", [svc.clock(), otherId]);
    svc.clock.advance(61_000);
    const commented = await waitForPost(svc, id, (p) => p.postIds[0].firstComment?.status !== 'pending');
    assert.deepEqual([commented.postIds[0].firstComment.status, commented.postIds[0].firstComment.code], ['error', 500], JSON.stringify(commented.postIds[0]));
    const ended = await waitForPost(svc, otherId, (p) => p.status !== 'pending');
    assert.equal(ended.status, 'error');
    await hookFor(otherId, (body) => body.subAction === 'unconfirmed');
  });

  it('work with a live job is left alone', async () => {
    const created = await svc.api('POST', '/post', { body: { post: 'Watchdog: alive', platforms: ['bluesky'], scheduleDate: inAnHour() } });
    const id = created.json.id as string;
    // Processing, with its publish job due later (a retry's backoff): alive.
    await svc.sql("UPDATE posts SET status = 'processing' WHERE id = ?", [id]);
    await svc.sql("UPDATE jobs SET run_at = ? WHERE subject = ? AND kind = 'publish'", [svc.clock() + 10 * 60_000, id]);
    svc.clock.advance(61_000);
    // Read once the sweep has run since the clock moved (it then schedules its next sweep a minute ahead), not after
    // a fixed 500 ms: on a loaded machine the worker's real-time poll may not have come yet, and "left alone" would
    // hold without the watchdog having looked at the post at all.
    const sweptSinceMoved = async () => Number((await svc.sql('SELECT run_at FROM jobs WHERE kind = ?', [JOB_PUBLISH_WATCHDOG])).rows[0]!.run_at) > svc.clock();
    const end = Date.now() + 15_000;
    while (!(await sweptSinceMoved()) && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.ok(await sweptSinceMoved(), 'the watchdog swept after the clock moved');
    assert.equal((await svc.api('GET', `/post/${id}`)).json.status, 'processing');
  });
});
