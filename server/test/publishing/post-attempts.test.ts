/**
 * Issue 30, the per-post timeline: `GET /api/post/:id/attempts` lists every attempt per network, read through the
 * typed client (its answer checked against the protocol schema): an immediate post's attempt and its first
 * comment, a scheduled post's attempt, and an interrupted commit's look-up; another profile's post is 404.
 * Real service, sandbox networks and database on loopback (SQLite, or PostgreSQL with TEST_DATABASE_URL).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TestService } from '../support/test-service.js';
import { linkSandboxAccounts, startPublishingService, waitForPost } from './publishing-fixtures.js';

describe('GET /api/post/:id/attempts', () => {
  let svc: TestService;
  before(async () => {
    svc = await startPublishingService();
    await linkSandboxAccounts(svc, ['bluesky', 'facebook']);
  });
  after(() => svc.close());

  /**
   * The timeline row of an attempt is written just after the attempt's result commits, so a reader that saw the
   * post's status can be a moment early: read until `count` attempts are there (or give what there is).
   */
  async function attemptsOf(id: string, count: number) {
    let answer = await svc.client.getPostAttempts(id);
    for (let polls = 0; polls < 500 && answer.attempts.length < count; polls++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      answer = await svc.client.getPostAttempts(id);
    }
    return answer;
  }

  it("an immediate post: one attempt per network, then the first comment's", async () => {
    const created = await svc.api('POST', '/post', { body: { post: 'Timeline: now', platforms: ['bluesky', 'facebook'], firstComment: { comment: 'timeline comment' } } });
    assert.equal(created.json.status, 'success', JSON.stringify(created.json));
    const id = created.json.id as string;
    await waitForPost(svc, id, (p) => p.postIds.every((entry: any) => entry.firstComment?.status === 'success'));
    const answer = await attemptsOf(id, 4);
    assert.equal(answer.id, id);
    const summary = answer.attempts.map((a) => `${a.platform} ${a.trigger} ${a.outcome}`).sort();
    assert.deepEqual(summary, ['bluesky first-comment success', 'bluesky immediate success', 'facebook first-comment success', 'facebook immediate success']);
    for (const attempt of answer.attempts) {
      assert.ok(!Number.isNaN(Date.parse(attempt.at)));
      assert.equal(attempt.reconcile, null);
    }
  });

  it("a scheduled post's attempt says `schedule`; an interrupted commit's next attempt says `reconcile`", async () => {
    const at = new Date(svc.clock() + 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const scheduled = await svc.api('POST', '/post', { body: { post: 'Timeline: later', platforms: ['bluesky'], scheduleDate: at } });
    const id = scheduled.json.id as string;
    svc.clock.advance(3_600_000);
    await waitForPost(svc, id, (p) => p.status === 'success');
    assert.deepEqual((await attemptsOf(id, 1)).attempts.map((a) => [a.trigger, a.outcome]), [['schedule', 'success']]);

    // A commit marked started with nothing prepared (a row no real attempt leaves): the attempt looks first, and its
    // error is on the timeline with the network's code.
    const other = await svc.api('POST', '/post', { body: { post: 'Timeline: interrupted', platforms: ['bluesky'], scheduleDate: new Date(svc.clock() + 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z') } });
    const otherId = other.json.id as string;
    await svc.sql("UPDATE post_platforms SET commit_started_at = ? WHERE post_id = ?", [svc.clock(), otherId]);
    svc.clock.advance(3_600_000);
    await waitForPost(svc, otherId, (p) => p.status === 'error');
    const [attempt] = (await attemptsOf(otherId, 1)).attempts;
    assert.deepEqual([attempt!.trigger, attempt!.outcome, attempt!.code], ['reconcile', 'error', 101]);
    assert.match(attempt!.message!, /not prepared/);
  });

  it("another profile's post, or no such post: 404 in the envelope", async () => {
    const created = await svc.api('POST', '/post', { body: { post: 'Timeline: mine', platforms: ['bluesky'] } });
    const { profileKey } = await svc.client.createProfile('Other tenant');
    const foreign = await svc.api('GET', `/post/${created.json.id}/attempts`, { headers: { 'Profile-Key': profileKey } });
    assert.equal(foreign.status, 404, JSON.stringify(foreign.json));
    assert.equal(foreign.json.status, 'error');
    const missing = await svc.api('GET', '/post/nope/attempts');
    assert.equal(missing.status, 404);
  });
});
