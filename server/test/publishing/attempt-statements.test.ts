/**
 * Statements one scheduled attempt runs (issue 31), counted on the real driver: a scheduled linkedin post's job, from
 * the attempt log's read to the result transaction. Each is a pooled round trip on PostgreSQL, so the count is
 * printed and bounded: the post and platform read once for the attempt log and the attempt, the suspension with the
 * plan, the social account once. Before this bound an attempt ran 23 (three reads of each of post and platform).
 * Counted: the statements whose parameters name the post, its job or its profile (the worker's claims and the
 * sandbox's own state name none of them), but not the lease keeper's renewals, which come with time, not per attempt.
 * The test waits on its own connection, so no API read is counted. The publish watchdog's sweep (every minute of
 * the service clock) is put off past the test: the clock's hour step makes it due with the attempt, and a sweep
 * that met the post processing read it, its platform and its jobs under its own lock (CI's PostgreSQL run, 21).
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { SqlExecutor, SqlParams } from '../../src/core/db/sql-driver.js';
import { JOB_PUBLISH_WATCHDOG } from '../../src/publishing/publish-watchdog.js';
import type { TestService } from '../support/test-service.js';
import { linkSandboxAccounts, startPublishingService } from './publishing-fixtures.js';

let svc: TestService;

before(async () => {
  svc = await startPublishingService();
  await linkSandboxAccounts(svc, ['linkedin']);
});
after(() => svc.close());

/** Counts the driver's statements (in and out of transactions) whose parameters hold one of `ids` while `work` runs. */
async function countStatements(ids: string[], work: () => Promise<void>): Promise<string[]> {
  const driver = svc.storage.driver;
  const seen: string[] = [];
  const note = (sql: string, params?: SqlParams) => {
    if (params?.some((param) => ids.includes(param as string)) && !/sandbox_|\(id, lease_token\) IN/.test(sql)) seen.push(sql.replace(/\s+/g, ' ').slice(0, 90));
  };
  // A driver's get may call its own all (PostgreSQL's does) synchronously: that inner call is the same statement.
  let inside = false;
  const counted = <T>(sql: string, params: SqlParams | undefined, call: () => T): T => {
    if (inside) return call();
    note(sql, params);
    inside = true;
    try {
      return call();
    } finally {
      inside = false;
    }
  };
  const original = { all: driver.all.bind(driver), get: driver.get.bind(driver), run: driver.run.bind(driver), transaction: driver.transaction.bind(driver) };
  driver.all = (sql, params) => counted(sql, params, () => original.all(sql, params));
  driver.get = (sql, params) => counted(sql, params, () => original.get(sql, params));
  driver.run = (sql, params, durability) => counted(sql, params, () => original.run(sql, params, durability));
  driver.transaction = <T>(body: (tx: SqlExecutor) => Promise<T>) =>
    original.transaction((tx) =>
      body({
        all: (sql, params) => counted(sql, params, () => tx.all(sql, params)),
        get: (sql, params) => counted(sql, params, () => tx.get(sql, params)),
        run: (sql, params) => counted(sql, params, () => tx.run(sql, params)),
        exec: (sql) => tx.exec(sql),
      }),
    );
  try {
    await work();
  } finally {
    Object.assign(driver, original);
  }
  return seen;
}

it('a scheduled linkedin attempt runs a bounded number of statements, each of post and platform read once before it', async () => {
  const at = new Date(svc.clock() + 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const created = await svc.api('POST', '/post', { body: { post: 'Statements of one attempt', platforms: ['linkedin'], scheduleDate: at } });
  assert.equal(created.status, 200, JSON.stringify(created.json));
  const id = created.json.id as string;
  const [job] = (await svc.sql("SELECT id FROM jobs WHERE subject = ? AND kind = 'publish'", [id])).rows;
  await svc.sql('UPDATE jobs SET run_at = ? WHERE kind = ?', [svc.clock() + 30 * 86_400_000, JOB_PUBLISH_WATCHDOG]);
  const statements = await countStatements([id, job!.id as string, svc.primaryProfile.id], async () => {
    svc.clock.advance(3_600_000);
    for (let waited = 0; (await svc.sql('SELECT status FROM posts WHERE id = ?', [id])).rows[0]!.status !== 'success'; waited += 20) {
      assert.ok(waited < 20_000, 'the post was not published');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });
  console.log(`statements of one scheduled attempt: ${statements.length}\n  ${statements.join('\n  ')}`);
  const reads = (prefix: string) => statements.filter((sql) => sql.startsWith(prefix)).length;
  // The attempt log's read is the attempt's; the result transaction locks the post once more.
  assert.equal(reads('SELECT * FROM post_platforms WHERE post_id = ? AND platform = ?'), 1);
  assert.ok(reads('SELECT * FROM posts WHERE id = ?') <= 2);
  assert.equal(reads('SELECT * FROM social_accounts'), 1);
  assert.equal(reads('SELECT tokens_encrypted FROM social_accounts'), 0);
  assert.ok(statements.length <= 18, `${statements.length} statements`);
});
