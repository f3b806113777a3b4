/**
 * Post, auto-repost series and job ids are time-ordered (issue 31, core/tokens.ts `newTimeOrderedId`): the prefix,
 * then 12 hex digits of the creation time in ms and 12 random ones, so rows created later sort later and land at the
 * end of their id indexes. Same length and alphabet as before; on the real service, SQLite or PostgreSQL.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { TestService } from '../support/test-service.js';
import { linkSandboxAccounts, startPublishingService } from './publishing-fixtures.js';

/** The test clock starts at 2026-11-22T12:00:00Z. */
const NEXT_WEEK = '2026-11-29T12:00:00Z';

let svc: TestService;
before(async () => {
  svc = await startPublishingService();
  await linkSandboxAccounts(svc, ['facebook', 'linkedin']);
});
after(() => svc.close());

const timeOf = (id: string) => Number.parseInt(id.replace(/^[a-z]+_/, '').slice(0, 12), 16);

test('scheduled posts, their series and their jobs get ids that start with their creation time and sort in that order', async () => {
  const ids: string[] = [];
  for (const [index, text] of ['first', 'second', 'third'].entries()) {
    const createdAt = svc.clock();
    const created = await svc.api('POST', '/post', { body: { post: `Time-ordered ${text} ${index * 7919}`, platforms: ['facebook', 'linkedin'], scheduleDate: NEXT_WEEK } });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    assert.match(created.json.id, /^post_[0-9a-f]{24}$/);
    assert.equal(timeOf(created.json.id), createdAt);
    const jobs = (await svc.sql('SELECT id FROM jobs WHERE subject = ?', [created.json.id])).rows.map((row) => row.id as string);
    assert.equal(jobs.length, 2);
    for (const job of jobs) {
      assert.match(job, /^job_[0-9a-f]{24}$/);
      assert.equal(timeOf(job), createdAt);
    }
    ids.push(created.json.id);
    svc.clock.advance(1_000);
  }
  assert.deepEqual([...ids].sort(), ids);
  assert.equal(new Set(ids.map((id) => id.slice(-12))).size, 3, 'the random parts differ');

  const series = await svc.api('POST', '/post', { body: { post: 'Time-ordered series', platforms: ['facebook'], autoRepost: { repeat: 2, days: 3 } } });
  assert.equal(series.status, 200, JSON.stringify(series.json));
  assert.match(series.json.autoRepostId, /^ar_[0-9a-f]{24}$/);
  assert.equal(timeOf(series.json.autoRepostId), svc.clock());
});
