/**
 * The publishing engine and the jobs worker count their outcomes in /metrics: a scheduled post published by the
 * worker on the real service moves `slk_publish_outcomes_total` for its network and `slk_jobs_total` for its job.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import type { TestService } from '../support/test-service.js';
import { linkSandboxAccounts, startPublishingService, waitForPost } from '../publishing/publishing-fixtures.js';

const ADMIN_TOKEN = `adm_${randomBytes(24).toString('base64url')}`;
const HOUR = 60 * 60 * 1000;

let svc: TestService;
before(async () => {
  // No analytics snapshots: the only jobs are the post's own.
  svc = await startPublishingService({ env: { ADMIN_TOKEN, ANALYTICS_SNAPSHOTS: 'off' } });
  await linkSandboxAccounts(svc, ['facebook']);
});
after(() => svc.close());

async function scrape(): Promise<string> {
  const response = await fetch(`${svc.url}/metrics`, { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } });
  assert.equal(response.status, 200);
  return response.text();
}

/** The value of one counter series, 0 when it has not been counted yet. */
function counter(text: string, series: string): number {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

/** Sum of every `slk_jobs_total` series with this outcome, whatever the job kind. */
function jobsWithOutcome(text: string, outcome: string): number {
  return text
    .split('\n')
    .filter((line) => line.startsWith('slk_jobs_total{') && line.includes(`outcome="${outcome}"`))
    .reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0);
}

test('a post published by the jobs worker counts a facebook success and a finished job', async () => {
  const publishSeries = 'slk_publish_outcomes_total{network="facebook",outcome="success"}';
  const before = await scrape();
  assert.equal(counter(before, publishSeries), 0);
  assert.equal(jobsWithOutcome(before, 'done'), 0);

  const at = new Date(svc.clock() + HOUR).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const created = await svc.api('POST', '/post', { body: { post: 'Counted by the metrics', platforms: ['facebook'], scheduleDate: at } });
  assert.equal(created.status, 200, JSON.stringify(created.json));
  svc.clock.advance(HOUR + 1000);
  await waitForPost(svc, created.json.id, (post) => post.status === 'success');

  const afterPublish = await scrape();
  assert.equal(counter(afterPublish, publishSeries), 1);
  assert.ok(jobsWithOutcome(afterPublish, 'done') >= 1, afterPublish);
});
