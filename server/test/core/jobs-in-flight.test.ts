/**
 * Issue 31: the worker holds many more jobs than one claim brings (they mostly wait on networks), and caps each
 * network's share, so a slow network cannot take every place and hold back another network's due jobs.
 * Real database (SQLite, or PostgreSQL with TEST_DATABASE_URL), a real worker; "networks" are handlers that wait.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { JobStore } from '../../src/core/jobs/job-store.js';
import { startJobWorker, type JobWorkerSettings } from '../../src/core/jobs/job-worker.js';
import { startTestService, type TestService } from '../support/test-service.js';

let svc: TestService;
let jobs: JobStore;
before(async () => {
  svc = await startTestService({ env: { JOBS_POLL_MS: '2000000000' } });
  jobs = new JobStore(svc.storage.driver);
  // The service's own worker claims what is due at start, then sleeps: wait for that so it is out of the way.
  while (Number((await svc.storage.driver.get('SELECT COUNT(*) AS n FROM jobs WHERE attempts = 0'))!.n) > 0) {
    await new Promise((resolve) => setImmediate(resolve));
  }
});
after(() => svc.close());

const base: JobWorkerSettings = { pollMs: 20, leaseMs: 60_000, batchSize: 4, maxAttempts: 3, retryBaseMs: 10, retryMaxMs: 10, keepFinishedMs: 60_000 };

async function until(condition: () => boolean, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) assert.fail(`timed out waiting: ${what}`);
    await sleep(5);
  }
}

test('a slow network does not block another network\'s due jobs, and its cap holds', async () => {
  let release!: () => void;
  const slowNetwork = new Promise<void>((resolve) => (release = resolve));
  const running = new Map<string, number>();
  const most = new Map<string, number>();
  const finished: string[] = [];
  const handler = async (job: { subject: string; payload: Record<string, unknown> }) => {
    const network = String(job.payload.platform);
    running.set(network, (running.get(network) ?? 0) + 1);
    most.set(network, Math.max(most.get(network) ?? 0, running.get(network)!));
    if (network === 'slowbook') await slowNetwork;
    running.set(network, running.get(network)! - 1);
    finished.push(job.subject);
    return { kind: 'done' as const };
  };
  const now = svc.clock();
  // Twenty slow jobs due first, then three of another network: a claim in due order brings only slow ones.
  for (let i = 0; i < 20; i++) await jobs.add({ kind: 'cap-test', subject: `slow-${i}`, payload: { platform: 'slowbook' }, runAt: now - 1_000 + i }, now);
  for (let i = 0; i < 3; i++) await jobs.add({ kind: 'cap-test', subject: `fast-${i}`, payload: { platform: 'quickgram' }, runAt: now }, now);
  const worker = startJobWorker({ store: jobs, clock: svc.clock, settings: { ...base, maxInFlight: 12, maxInFlightPerNetwork: 5 }, handlers: { 'cap-test': handler } });
  try {
    await until(() => finished.filter((s) => s.startsWith('fast-')).length === 3, 'the other network\'s jobs finished while the slow one hangs');
    assert.equal(running.get('slowbook'), 5, 'the slow network holds exactly its cap of places');
    assert.equal(finished.filter((s) => s.startsWith('slow-')).length, 0);
    release();
    await until(() => finished.length === 23, 'every job finished');
    assert.equal(most.get('slowbook'), 5, 'never more than the cap of one network at once');
    await worker.stop();
    assert.equal(await jobs.countOpen('cap-test'), 0, 'every job recorded as done');
  } finally {
    release();
    await worker.stop();
  }
});

test('hundreds of jobs wait at once, though each claim brings 32', async () => {
  let release!: () => void;
  const network = new Promise<void>((resolve) => (release = resolve));
  let running = 0;
  let done = 0;
  const handler = async () => {
    running++;
    await network;
    running--;
    done++;
    return { kind: 'done' as const };
  };
  const now = svc.clock();
  await svc.storage.driver.transaction(async (tx) => {
    for (let i = 0; i < 300; i++) await JobStore.addIn(tx, { kind: 'many-test', subject: `m-${i}`, payload: { platform: `net-${i % 3}` }, runAt: now }, now);
  });
  const worker = startJobWorker({
    store: jobs,
    clock: svc.clock,
    settings: { ...base, batchSize: 32, maxInFlight: 400, maxInFlightPerNetwork: 100 },
    handlers: { 'many-test': handler },
  });
  try {
    await until(() => running === 300, 'all 300 waiting on their networks together');
    release();
    await until(() => done === 300, 'all done');
  } finally {
    release();
    await worker.stop();
  }
});
