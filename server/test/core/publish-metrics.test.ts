/**
 * The publishing engine and the jobs worker count their outcomes in /metrics: a scheduled post published by the
 * worker on the real service moves `slk_publish_outcomes_total` for its network and `slk_jobs_total` for its job,
 * and its `scheduled` webhook, once delivered, `slk_webhook_deliveries_total`.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import type { TestService } from '../support/test-service.js';
import { linkSandboxAccounts, startPublishingService, waitForPost } from '../publishing/publishing-fixtures.js';
import { FAST_DELIVERY } from '../webhooks/fixtures.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

const ADMIN_TOKEN = `adm_${randomBytes(24).toString('base64url')}`;
const HOUR = 60 * 60 * 1000;

let svc: TestService;
let receiver: WebhookReceiver;
before(async () => {
  receiver = await startWebhookReceiver();
  // No analytics snapshots: the only jobs are the post's own.
  svc = await startPublishingService({ env: { ADMIN_TOKEN, ANALYTICS_SNAPSHOTS: 'off', ...FAST_DELIVERY, ...receiver.serviceEnv } });
  await linkSandboxAccounts(svc, ['facebook']);
  const registered = await svc.api('POST', '/hook/webhook', { body: { action: 'scheduled', url: receiver.url } });
  assert.equal(registered.status, 200, JSON.stringify(registered.json));
});
after(async () => {
  await svc.close();
  await receiver.close();
});

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

test('a post published by the jobs worker counts a facebook success, a finished job and a delivered webhook', async () => {
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
  // The post is visible as published before its job is marked done: wait for the job's count.
  assert.ok(await scrapeUntil((text) => jobsWithOutcome(text, 'done')) >= 1);

  // The worker counts a delivery once the receiver has answered: wait for the webhook, then for the counter.
  const deliveredSeries = 'slk_webhook_deliveries_total{outcome="delivered"}';
  assert.equal(counter(before, deliveredSeries), 0);
  await receiver.waitFor((webhook) => JSON.parse(webhook.body).id === created.json.id);
  assert.equal(await scrapeUntil((text) => counter(text, deliveredSeries)), 1);
});

/**
 * Scrapes until `read` gives a count above zero, and returns it; 0 after 20 s (a deadline of time, not of scrapes:
 * 500 scrapes 5 ms apart were about 3 s, which a loaded machine's worker may need to finish a job's bookkeeping).
 */
async function scrapeUntil(read: (text: string) => number): Promise<number> {
  const end = Date.now() + 20_000;
  let count = read(await scrape());
  while (count === 0 && Date.now() < end) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    count = read(await scrape());
  }
  return count;
}
