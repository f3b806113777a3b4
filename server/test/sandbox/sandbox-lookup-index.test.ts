/**
 * Issue 31: the sandbox's own lookups go through indexes (migration 19), so its cost does not grow with its posts
 * and skew publishing benchmarks. Real SQLite: the query planner's own plan of each lookup the sandbox store runs.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestService, type TestService } from '../support/test-service.js';

let svc: TestService;
before(async () => {
  svc = await startTestService();
});
after(() => svc.close());

async function plan(sql: string): Promise<string> {
  const rows = await svc.storage.driver.all(`EXPLAIN QUERY PLAN ${sql}`, []);
  return rows.map((row) => String(row.detail)).join(' | ');
}

test('a post by its network id, and an account\'s newest posts, are found through indexes', { skip: Boolean(process.env.TEST_DATABASE_URL) && 'SQLite plan' }, async () => {
  const byNetworkId = await plan(`SELECT * FROM sandbox_posts WHERE platform = 'facebook' AND network_id = 'x' AND deleted_at IS NULL`);
  assert.match(byNetworkId, /USING INDEX sandbox_posts_network_id/, byNetworkId);
  const newest = await plan(`SELECT * FROM sandbox_posts WHERE (platform = 'linkedin' AND account_id = 'a') ORDER BY created_at DESC, id DESC LIMIT 200`);
  assert.match(newest, /USING INDEX sandbox_posts_account_created/, newest);
  assert.doesNotMatch(newest, /^SCAN sandbox_posts$|TEMP B-TREE FOR ORDER BY/, newest);
});
