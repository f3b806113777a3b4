/**
 * The lease-claim jobs table on the real database (SQLite, or PostgreSQL with TEST_DATABASE_URL): due rows only,
 * one holder per lease, an expired lease is taken over, a stale holder changes nothing, backoff reschedules,
 * finished rows are pruned. Leases run on their own (real) clock: a jump of the service clock expires none. On
 * PostgreSQL that clock is the database server's (lease-clock-skew.test.ts), so a lease there runs out in real time.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { JobStore } from '../../src/core/jobs/job-store.js';
import { startTestService, type TestService } from '../support/test-service.js';

let svc: TestService;
let jobs: JobStore;
/** The lease clock of `jobs` (real time in the service), moved by hand here. */
let leaseNow = Date.now();
// The service's own worker sleeps: this test claims by hand (unknown kinds would be failed by it).
// Its first poll runs at start, though: wait until it has claimed the jobs seeded at start (analytics snapshots), so
// it cannot take this test's jobs; after that it sleeps.
before(async () => {
  svc = await startTestService({ env: { JOBS_POLL_MS: '2000000000' } });
  jobs = new JobStore(svc.storage.driver, () => leaseNow);
  while (Number((await svc.storage.driver.get('SELECT COUNT(*) AS n FROM jobs WHERE attempts = 0'))!.n) > 0) {
    await new Promise((resolve) => setImmediate(resolve));
  }
});
after(() => svc.close());

test('claim takes due jobs only, leases them once, and hands an expired lease to the next claimer', async () => {
  const now = svc.clock();
  await jobs.add({ kind: 'test-a', subject: 's1', runAt: now - 1 }, now);
  await jobs.add({ kind: 'test-a', subject: 's2', runAt: now + 7_200_000 }, now);
  const first = await jobs.claim(now, 10, ['test-a'], 300);
  assert.deepEqual(first.map((job) => job.subject), ['s1']);
  assert.equal(first[0]!.attempts, 1);
  assert.deepEqual(await jobs.claim(now, 10, ['test-a'], 1_000), [], 'a held lease is not claimed again');
  assert.deepEqual(await jobs.claim(now + 3_600_000, 10, ['test-a'], 1_000), [], 'an hour on the service clock expires no lease');
  // The lease runs out: on SQLite by this test's lease clock, on PostgreSQL by the database's own clock.
  leaseNow += 1_000;
  if (process.env.TEST_DATABASE_URL) await new Promise((resolve) => setTimeout(resolve, 350));
  const later = await jobs.claim(now, 10, ['test-a'], 1_000);
  assert.deepEqual(later.map((job) => job.subject), ['s1'], 'an expired lease is taken over');
  assert.equal(later[0]!.attempts, 2);
  assert.equal(await jobs.complete(first[0]!, now), false, 'the stale holder changes nothing');
  assert.equal(await jobs.complete(later[0]!, now + 1_500), true);
  assert.deepEqual(await jobs.claim(now + 10_000, 10, ['test-a'], 1_000), []);
  assert.equal(await jobs.cancelFor('s2', now), 1);
});

test('reschedule releases the job to a later time with its payload; fail ends it; cancel ends a subject\'s open jobs', async () => {
  const now = svc.clock();
  await jobs.add({ kind: 'test-b', subject: 'r1', payload: { step: 1 }, runAt: now }, now);
  const [job] = await jobs.claim(now, 10, ['test-b'], 1_000);
  assert.equal(await jobs.reschedule(job!, now + 5_000, 'busy', { step: 2 }), true);
  assert.deepEqual(await jobs.claim(now + 4_000, 10, ['test-b'], 1_000), []);
  const [again] = await jobs.claim(now + 5_000, 10, ['test-b'], 1_000);
  assert.deepEqual(again!.payload, { step: 2 });
  assert.equal(await jobs.fail(again!, now + 5_000, 'gave up'), true);
  assert.deepEqual(await jobs.claim(now + 100_000, 10, ['test-b'], 1_000), []);

  await jobs.add({ kind: 'test-b', subject: 'c1', runAt: now }, now);
  assert.equal(await jobs.cancelFor('c1', now), 1);
  assert.deepEqual(await jobs.claim(now + 100_000, 10, ['test-b'], 1_000), []);
});

test('prune deletes finished jobs older than the cut, keeps open ones', async () => {
  const now = svc.clock();
  await jobs.add({ kind: 'test-c', subject: 'open', runAt: now + 3_600_000 }, now);
  const before = await jobs.countOpen();
  assert.ok((await jobs.prune(now + 200_000, ['test-a', 'test-b'])) >= 3);
  assert.equal(await jobs.countOpen(), before);
});

test('a claim takes only the kinds it names, so each worker runs only jobs it has a handler for', async () => {
  const now = svc.clock();
  await jobs.add({ kind: 'test-d', subject: 'd1', runAt: now }, now);
  await jobs.add({ kind: 'test-e', subject: 'e1', runAt: now }, now);
  assert.deepEqual(await jobs.claim(now, 10, [], 1_000), []);
  assert.deepEqual((await jobs.claim(now, 10, ['test-e'], 1_000)).map((job) => job.subject), ['e1']);
  assert.deepEqual((await jobs.claim(now, 10, ['test-d', 'test-e'], 1_000)).map((job) => job.subject), ['d1']);
});

test('a batch claim leases every row it returns, and the next claim skips them', async () => {
  const now = svc.clock();
  for (let index = 0; index < 5; index += 1) await jobs.add({ kind: 'test-f', subject: `f${index}`, runAt: now - 5 + index }, now);
  const first = await jobs.claim(now, 3, ['test-f'], 1_000);
  assert.deepEqual(first.map((job) => job.subject), ['f0', 'f1', 'f2'], 'oldest due first');
  const second = await jobs.claim(now, 3, ['test-f'], 1_000);
  assert.deepEqual(second.map((job) => job.subject), ['f3', 'f4']);
  for (const job of [...first, ...second]) assert.equal(await jobs.complete(job, now), true);
});
