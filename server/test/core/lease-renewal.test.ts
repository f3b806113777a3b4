/**
 * Issue 30, case 1: a job whose handler outlasts the lease (a slow network call within the outbound timeout) keeps
 * its lease, so a second worker on the same jobs table never takes it over and runs it again. On the code before
 * the lease keeper, the second worker claimed the job once the lease ran out and ran it twice; on the code before
 * leases ran on real time, a jump of the service clock alone let it. Real database (SQLite, or PostgreSQL with TEST_DATABASE_URL), two real workers, the service clock moved by hand.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { JobStore } from '../../src/core/jobs/job-store.js';
import { startJobWorker, type JobWorkerSettings } from '../../src/core/jobs/job-worker.js';
import { keepLease } from '../../src/core/jobs/lease-keeper.js';
import { startTestService, type TestService } from '../support/test-service.js';

let svc: TestService;
let jobs: JobStore;
before(async () => {
  svc = await startTestService({ env: { JOBS_POLL_MS: '2000000000' } });
  jobs = new JobStore(svc.storage.driver);
  while (Number((await svc.storage.driver.get('SELECT COUNT(*) AS n FROM jobs WHERE attempts = 0'))!.n) > 0) {
    await new Promise((resolve) => setImmediate(resolve));
  }
});
after(() => svc.close());

/**
 * Long enough that only a stall of the event loop near two thirds of it (the keeper renews every third) lets a lease
 * run out: on a loaded CI machine the loop runs tens of ms late at any moment, which a 300 ms lease barely covered.
 */
const LEASE_MS = 1_000;
const settings: JobWorkerSettings = { pollMs: 2_000_000_000, leaseMs: LEASE_MS, batchSize: 4, maxAttempts: 3, retryBaseMs: 10, retryMaxMs: 10, keepFinishedMs: 60_000 };

/** Two workers on one jobs table whose handler of `kind` counts its runs and waits on one slow call until released. */
function twoWorkersOnASlowCall(kind: string, workerSettings: JobWorkerSettings) {
  let runs = 0;
  let release!: () => void;
  const slowCall = new Promise<void>((resolve) => (release = resolve));
  const handler = async () => {
    runs++;
    await slowCall;
    return { kind: 'done' as const };
  };
  const first = startJobWorker({ store: jobs, clock: svc.clock, settings: workerSettings, handlers: { [kind]: handler } });
  const second = startJobWorker({ store: jobs, clock: svc.clock, settings: workerSettings, handlers: { [kind]: handler } });
  return { first, second, release, runs: () => runs };
}

test('a handler running past its lease keeps it: a second worker never runs the job again', async () => {
  const { first, second, release, runs } = twoWorkersOnASlowCall('slow-call', settings);
  try {
    await jobs.add({ kind: 'slow-call', subject: 'lease-1', runAt: svc.clock() }, svc.clock());
    // Both workers' loops claim once at start (their polls then sleep): either may hold the job; the other one is
    // then asked to claim while the call is in flight.
    void first.runOnce();
    while (runs() === 0) await sleep(5);
    // Four lease lengths of service time pass while the call is in flight, half a lease at a time.
    for (let step = 0; step < 8; step++) {
      svc.clock.advance(LEASE_MS / 2);
      await sleep(LEASE_MS / 2);
      // Not awaited to its end: a second run of the handler would wait on the same slow call.
      await Promise.race([second.runOnce(), sleep(20)]);
    }
    assert.equal(runs(), 1, 'the job ran once: its lease was renewed while the call was in flight');
    release();
    await Promise.all([first.stop(), second.stop()]);
    assert.equal(await jobs.countOpen('slow-call'), 0, 'the worker running the call still held the lease and completed the job');
  } finally {
    release();
    await Promise.all([first.stop(), second.stop()]);
  }
});

test('a jump of the service clock past the lease while a job runs expires nothing: no second run', async () => {
  // A lease far longer than the test: only a lease read on the service clock could run out here.
  const { first, second, release, runs } = twoWorkersOnASlowCall('clock-jump', { ...settings, leaseMs: 60_000 });
  try {
    await jobs.add({ kind: 'clock-jump', subject: 'lease-2', runAt: svc.clock() }, svc.clock());
    void first.runOnce();
    while (runs() === 0) await sleep(5);
    svc.clock.advance(2 * 60 * 60_000);
    await Promise.race([second.runOnce(), sleep(50)]);
    assert.equal(runs(), 1, 'the second worker did not take the job: its lease runs on real time');
    release();
    await Promise.all([first.stop(), second.stop()]);
    assert.equal(await jobs.countOpen('clock-jump'), 0, 'the worker running the job completed it under its lease');
  } finally {
    release();
    await Promise.all([first.stop(), second.stop()]);
  }
});

test('the leases of many running jobs are renewed together, and a job taken over is reported lost', async () => {
  const now = svc.clock();
  for (let i = 0; i < 150; i++) await jobs.add({ kind: 'many-held', subject: `m${i}`, runAt: now }, now);
  const held = await jobs.claim(now, 200, ['many-held'], LEASE_MS);
  assert.equal(held.length, 150);
  const keepers = held.map((job) => keepLease(jobs, job, LEASE_MS));
  try {
    await sleep(LEASE_MS * 3);
    assert.deepEqual(await jobs.claim(now, 200, ['many-held'], LEASE_MS), [], 'every lease was renewed past three lease lengths');
    // Another worker holds one of them now (its token on the row): the keeper's next renewal finds out, whenever on
    // a loaded machine it comes (up to a deadline only a hang reaches).
    await svc.storage.driver.run("UPDATE jobs SET lease_token = 'someone-else' WHERE id = ?", [held[7]!.id]);
    const end = Date.now() + 10_000;
    while (!keepers.some((keeper) => keeper.lost) && Date.now() < end) await sleep(20);
    assert.deepEqual(
      keepers.flatMap((keeper, index) => (keeper.lost ? [index] : [])),
      [7],
      'only the job taken over is lost',
    );
  } finally {
    for (const keeper of keepers) keeper.stop();
  }
});
