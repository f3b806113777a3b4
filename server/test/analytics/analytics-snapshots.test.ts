/**
 * The snapshot job on the real service: one job per analytics network on the jobs table, rescheduling itself on
 * its network's interval (service clock); each run stores the metrics of recent posts, so a later total failure
 * is recovered from data the caller never asked for.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ANALYTICS_PLATFORMS } from '@social-link-kit/protocol/analytics/index.js';
import { SNAPSHOT_BUDGETS } from '../../src/analytics/snapshot-job.js';
import type { TestService } from '../support/test-service.js';
import { linkSandboxAccounts, startPublishingService } from '../publishing/publishing-fixtures.js';
import { publish, setInsightsFault } from './analytics-fixtures.js';

let svc: TestService;

before(async () => {
  svc = await startPublishingService();
  await linkSandboxAccounts(svc, ['twitter', 'facebook']);
});
after(() => svc.close());

async function snapshotsOf(networkPostId: string) {
  return (await svc.sql('SELECT metrics, taken_at FROM analytics_snapshots WHERE subject = ? ORDER BY taken_at', [networkPostId])).rows;
}

/** Polls the database until `done` holds (the worker runs on its own loop). */
async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  let last: T | undefined;
  for (let polls = 0; polls < 1500; polls++) {
    last = await read();
    if (done(last)) return last;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`never reached: ${JSON.stringify(last)}`);
}

test('one open snapshot job per analytics network', async () => {
  const { rows } = await svc.sql("SELECT subject FROM jobs WHERE kind = 'analytics-snapshot' AND done_at IS NULL AND failed_at IS NULL ORDER BY subject");
  assert.deepEqual(rows.map((row) => row.subject), ANALYTICS_PLATFORMS.map((platform) => `analytics:${platform}`).sort());
});

test('snapshots are taken on each network schedule, with growing metrics, and feed recovery', async () => {
  const { networkPostId } = await publish(svc, 'facebook');
  const tweet = await publish(svc, 'twitter');
  // Past facebook's interval but not twitter's: facebook's job runs, twitter's waits.
  svc.clock.advance(SNAPSHOT_BUDGETS.facebook.intervalMs + 1);
  const first = await waitFor(() => snapshotsOf(networkPostId), (rows) => rows.length >= 1);
  svc.clock.advance(SNAPSHOT_BUDGETS.facebook.intervalMs + 1);
  const two = await waitFor(() => snapshotsOf(networkPostId), (rows) => rows.length >= 2);
  assert.ok(JSON.parse(two[1]!.metrics).impressions > JSON.parse(first[0]!.metrics).impressions);
  const twitterJob = await svc.sql("SELECT run_at FROM jobs WHERE subject = 'analytics:twitter' AND done_at IS NULL AND failed_at IS NULL");
  // twitter's first run (at start, nothing published yet) set its next run one twitter interval later: not yet due.
  assert.ok(Number(twitterJob.rows[0]!.run_at) > svc.clock(), JSON.stringify(twitterJob.rows));
  assert.equal((await snapshotsOf(tweet.networkPostId)).length, 0);

  // The network fails as a whole: the answer is the job's newest snapshot.
  await setInsightsFault(svc, 'facebook', 'down');
  const recovered = await svc.api('POST', '/analytics/post', { body: { id: networkPostId, platforms: ['facebook'], searchPlatformId: true } });
  await setInsightsFault(svc, 'facebook', null);
  assert.equal(recovered.status, 200, JSON.stringify(recovered.json));
  assert.equal(recovered.json.facebook.recoveredFrom, new Date(Number(two[1]!.taken_at)).toISOString());
  assert.deepEqual(recovered.json.facebook.analytics, JSON.parse(two[1]!.metrics));
});
