/**
 * Issue 30, no surprise at publish time: instagram takes 50 posts per 24 h per account. With 50 instagram posts
 * already scheduled in the 24 h before a time, a 51st scheduled there is refused at create (400, 101) naming the
 * budget and `availableAt`, and one scheduled at `availableAt` is accepted; `GET /api/capacity` reads the same
 * numbers. The 49 posts beside the first API-created one are copies of its rows in the real database (SQLite, or
 * PostgreSQL with TEST_DATABASE_URL), which is where every instance counts. Before, the 51st failed at its time.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TestService } from '../support/test-service.js';
import { linkSandboxAccounts, startPublishingService } from './publishing-fixtures.js';

const HOUR = 3_600_000;
const isoAt = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

describe('capacity at create', () => {
  let svc: TestService;
  before(async () => {
    svc = await startPublishingService();
    await linkSandboxAccounts(svc, ['instagram']);
  });
  after(() => svc.close());

  it('the 51st instagram post in 24 h is refused with its budget and availableAt; at availableAt it fits', async () => {
    const start = Math.ceil((svc.clock() + HOUR) / 1000) * 1000;
    const body = (text: string, at: number) => ({ post: text, platforms: ['instagram'], mediaUrls: [`${svc.url}/sandbox/media/photo.jpg`], scheduleDate: isoAt(at) });
    const first = await svc.api('POST', '/post', { body: body('Capacity 0', start) });
    assert.equal(first.status, 200, JSON.stringify(first.json));
    for (let n = 1; n < 50; n++) {
      const id = `${first.json.id}_${n}`;
      await svc.sql(`INSERT INTO posts (id, profile_id, status, request, platforms, schedule_date, created_at, updated_at) SELECT ?, profile_id, status, request, platforms, ?, created_at, updated_at FROM posts WHERE id = ?`, [id, start + n * 60_000, first.json.id]);
      await svc.sql(`INSERT INTO post_platforms (post_id, platform, status, text, effective_at, profile_id, account_id) SELECT ?, platform, status, text, ?, profile_id, account_id FROM post_platforms WHERE post_id = ?`, [id, start + n * 60_000, first.json.id]);
    }
    const late = start + 10 * HOUR;
    const refused = await svc.api('POST', '/post', { body: body('Capacity 51', late) });
    assert.equal(refused.status, 400, JSON.stringify(refused.json));
    assert.equal(refused.json.code, 101);
    assert.equal(refused.json.details.budget, 'posts');
    assert.equal(refused.json.details.limit, 50);
    // The oldest post leaves the window 24 h after its time.
    assert.equal(refused.json.details.availableAt, isoAt(start + 24 * HOUR).replace('Z', '.000Z'));
    assert.match(refused.json.message, /50 instagram posts per 24 hours/);

    const capacity = await svc.api('GET', `/capacity?platform=instagram&at=${isoAt(late)}`);
    assert.equal(capacity.status, 200, JSON.stringify(capacity.json));
    assert.deepEqual(
      capacity.json.capacity.map((e: any) => [e.platform, e.budget, e.limit, e.used, e.availableAt]),
      [['instagram', 'posts', 50, 50, refused.json.details.availableAt]],
    );
    const fits = await svc.api('POST', '/post', { body: body('Capacity fits', start + 24 * HOUR) });
    assert.equal(fits.status, 200, JSON.stringify(fits.json));
    assert.equal((await svc.api('GET', '/capacity?platform=nowhere')).status, 400);
  });
});
