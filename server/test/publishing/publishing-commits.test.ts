/**
 * Durable commits per immediate post (`POST /api/post` to 3 sandbox networks), counted on the real driver: every
 * write transaction and every write outside one. Each platform's attempt needs two of its own (the "commit started"
 * record before the network call, then one result transaction: result, post status, job completion); the rest are the
 * create transaction and the sandbox networks' own state; the timeline's row per attempt (attempt-log.ts) rides in
 * the result transaction. The count is printed and bounded, so a change that splits
 * a step into several commits again fails here. Of an attempt's commits only those two wait for a sync of the disk
 * (issue 31): the fences around each send need only survive a process crash.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Network } from '@social-link-kit/protocol';
import { PUBLISHING_CAPABILITIES } from '@social-link-kit/protocol/publishing/capabilities.js';
import type { SqlExecutor, WriteDurability } from '../../src/core/db/sql-driver.js';
import { startTestService, type TestService } from '../support/test-service.js';

let svc: TestService;
const PLATFORMS = ['facebook', 'linkedin', 'bluesky'];

before(async () => {
  // The worker sleeps: only the request's own inline attempts write.
  svc = await startTestService({ env: { JOBS_POLL_MS: '2000000000', SANDBOX_NETWORKS: 'all' } });
  for (const platform of PLATFORMS) assert.equal((await svc.api('POST', '/sandbox/accounts', { body: { platform } })).status, 200);
});
after(() => svc.close());

/** The single writes (outside a transaction) a `countCommits` saw, with the durability each asked for. */
let singleWrites: { sql: string; durability: WriteDurability }[] = [];

/** Counts the driver's commits while `work` runs; each entry names the statements it wrote. */
async function countCommits(work: () => Promise<void>): Promise<string[][]> {
  const driver = svc.storage.driver;
  const commits: string[][] = [];
  singleWrites = [];
  const writeOf = (sql: string) => /^\s*(INSERT INTO \w+|UPDATE \w+|DELETE FROM \w+)/i.exec(sql)?.[1] ?? null;
  const original = { run: driver.run.bind(driver), get: driver.get.bind(driver), transaction: driver.transaction.bind(driver) };
  driver.run = async (sql, params, durability = 'power-loss') => {
    const write = writeOf(sql);
    if (write) {
      commits.push([write]);
      singleWrites.push({ sql, durability });
    }
    return original.run(sql, params, durability);
  };
  // INSERT … RETURNING runs through get.
  driver.get = async (sql, params) => {
    const write = writeOf(sql);
    if (write) commits.push([write]);
    return original.get(sql, params);
  };
  driver.transaction = async <T>(body: (tx: SqlExecutor) => Promise<T>) => {
    const writes: string[] = [];
    const result = await original.transaction((tx) =>
      body({
        all: (sql, params) => tx.all(sql, params),
        get: (sql, params) => {
          const write = writeOf(sql);
          if (write) writes.push(write);
          return tx.get(sql, params);
        },
        run: (sql, params) => {
          const write = writeOf(sql);
          if (write) writes.push(write);
          return tx.run(sql, params);
        },
        exec: (sql) => tx.exec(sql),
      }),
    );
    if (writes.length > 0) commits.push(writes);
    return result;
  };
  try {
    await work();
  } finally {
    driver.run = original.run;
    driver.get = original.get;
    driver.transaction = original.transaction;
  }
  return commits;
}

it('an immediate post to 3 networks takes a bounded number of commits, two per platform attempt of its own', async () => {
  // One post first, so one-time writes (rate budget rows, sessions) are not counted.
  const warm = await svc.api('POST', '/post', { body: { post: 'Warm up the sandbox', platforms: PLATFORMS } });
  assert.equal(warm.json.status, 'success', JSON.stringify(warm.json));
  let status = '';
  const commits = await countCommits(async () => {
    status = (await svc.api('POST', '/post', { body: { post: 'Counting commits per immediate post', platforms: PLATFORMS } })).json.status;
  });
  assert.equal(status, 'success');
  console.log(`commits for one immediate post to ${PLATFORMS.length} networks: ${commits.length}`);
  for (const commit of commits) console.log(`  ${commit.join(', ')}`);
  // Per platform: "commit started" with the lease extension that proves the job is still held (issue 30), and the
  // result transaction completing the job; nothing else writes both.
  const paired = commits.filter((writes) => writes.includes('UPDATE post_platforms') && writes.includes('UPDATE jobs'));
  assert.equal(paired.length, 2 * PLATFORMS.length, 'per platform one "commit started" (with its lease) and one result transaction');
  assert.equal(commits.filter((writes) => writes.length === 2 && writes[0] === 'UPDATE jobs' && writes[1] === 'UPDATE post_platforms').length, PLATFORMS.length, 'the lease is extended first');
  // The per-post timeline (GET /api/post/:id/attempts) writes one row when each attempt ends, in its result
  // transaction (issue 31: it once took a commit, and a sync, of its own).
  assert.equal(commits.filter((writes) => writes.includes('INSERT INTO publish_attempts')).length, PLATFORMS.length, 'one timeline row per attempt');
  assert.equal(commits.filter((writes) => writes.includes('INSERT INTO publish_attempts') && writes.includes('UPDATE post_platforms')).length, PLATFORMS.length, 'in the result transaction');
  // Each sending request is fenced (issue 30, lease-held-call.ts): one statement before it (the lease checked and
  // extended, and until when its answer may come noted); each of these text posts sends one request. The note is
  // cleared after the answer by a statement of its own only on a network that threads (bluesky here: a crash between
  // parts must not make a takeover wait); elsewhere the result transaction that completes the job clears it (issue
  // 31: one commit fewer per send).
  const threading = PLATFORMS.filter((platform) => PUBLISHING_CAPABILITIES[platform as Network].threads).length;
  const fences = commits.filter((writes) => writes.length === 1 && writes[0] === 'UPDATE jobs').length;
  assert.equal(fences, PLATFORMS.length + threading, 'a fence before each sending request, its clearing only where the network threads');
  const rest = commits.length - fences;
  assert.ok(rest <= 12, `at most 12 commits per post besides the fences (was about 20 before the result step was grouped, 15 before the timeline row joined it); got ${rest}`);
});

it('of an attempt, only "commit started" and the result wait for a disk sync: the fences do not', async () => {
  const commits = await countCommits(async () => {
    const posted = await svc.api('POST', '/post', { body: { post: 'Which commits wait for a sync', platforms: PLATFORMS } });
    assert.equal(posted.json.status, 'success', JSON.stringify(posted.json));
  });
  const fenceOrClear = (sql: string) => /^\s*UPDATE jobs SET (lease_until = .*call_until|call_until = NULL)/.test(sql);
  const ours = singleWrites.filter((write) => fenceOrClear(write.sql));
  const threading = PLATFORMS.filter((platform) => PUBLISHING_CAPABILITIES[platform as Network].threads).length;
  assert.equal(ours.length, PLATFORMS.length + threading, 'per attempt a fence, and its clearing where the network threads');
  assert.deepEqual(
    ours.filter((write) => write.durability !== 'process-crash').map((write) => write.sql),
    [],
    'none of them waits for a sync of its own',
  );
  // What still waits for one: the create transaction and, per attempt, "commit started" and the result.
  console.log(`commits of one immediate post to ${PLATFORMS.length} networks: ${commits.length}, ${ours.length} of them without a sync of their own`);
});
