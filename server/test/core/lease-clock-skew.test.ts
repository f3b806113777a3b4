/**
 * Job leases on PostgreSQL run on the database's clock (issue 30): two service instances whose wall clocks disagree
 * by more than a lease still agree on who holds it. On the code before, each instance compared leases with its own
 * wall clock, so the one ahead saw a held lease as run out and took the job too (both held it), and the one behind
 * wrote leases that others saw as run out already. PostgreSQL only (TEST_DATABASE_URL): SQLite is one machine.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { JobStore } from '../../src/core/jobs/job-store.js';
import { startTestService, type TestService } from '../support/test-service.js';

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const TEN_MINUTES = 10 * 60_000;

let svc: TestService;
before(async () => {
  if (!onPostgres) return;
  svc = await startTestService({ env: { JOBS_POLL_MS: '2000000000' } });
});
after(() => svc?.close());

test('instances with wall clocks ten minutes apart never both hold a lease', { skip: !onPostgres && 'PostgreSQL only (SQLite is one machine)' }, async () => {
  const ahead = new JobStore(svc.storage.driver, () => Date.now() + TEN_MINUTES);
  const behind = new JobStore(svc.storage.driver, () => Date.now() - TEN_MINUTES);
  const now = svc.clock();

  await ahead.add({ kind: 'skew-a', subject: 'k1', runAt: now }, now);
  const [held] = await behind.claim(now, 1, ['skew-a'], 60_000);
  assert.ok(held, 'the instance behind claims the job');
  assert.deepEqual(await ahead.claim(now, 1, ['skew-a'], 60_000), [], 'the instance ahead does not see the fresh lease as run out');
  assert.equal(await behind.fence(held, 60_000), true, 'the holder still passes its fence');

  await behind.add({ kind: 'skew-b', subject: 'k2', runAt: now }, now);
  const [mine] = await ahead.claim(now, 1, ['skew-b'], 60_000);
  assert.ok(mine, 'the instance ahead claims the job');
  assert.deepEqual(await behind.claim(now, 1, ['skew-b'], 60_000), [], 'the instance behind cannot take it either');
  assert.equal(await ahead.renew(mine, 60_000), true);
  assert.deepEqual(await behind.claim(now, 1, ['skew-b'], 60_000), [], 'nor after a renewal');
});

test('a lease that ran out by the database clock fails its fence, and the next claimer gets the job', { skip: !onPostgres && 'PostgreSQL only' }, async () => {
  const first = new JobStore(svc.storage.driver, () => Date.now() - TEN_MINUTES);
  const second = new JobStore(svc.storage.driver, () => Date.now() + TEN_MINUTES);
  const now = svc.clock();
  await first.add({ kind: 'skew-c', subject: 'k3', runAt: now }, now);
  const [stale] = await first.claim(now, 1, ['skew-c'], 50);
  assert.ok(stale);
  await new Promise((resolve) => setTimeout(resolve, 120));
  assert.equal(await first.fence(stale, 60_000), false, 'a lease past its end does not pass the fence, whatever the holder\'s own clock says');
  const [taken] = await second.claim(now, 1, ['skew-c'], 60_000);
  assert.ok(taken, 'the next claimer takes the job');
  assert.equal(await first.renew(stale, 60_000), false, 'the old holder cannot renew it back');
});
