/**
 * The demo's post page backend (`GET /api/posts/:id/details` of the demo site) against the real service: the
 * analytics now and over time, the comments and the automation activity of a post, through the typed client.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { startDemo, type RunningDemo } from '../../../demo/server.js';
import type { TestService } from '../support/test-service.js';
import { startPublishingService } from '../publishing/publishing-fixtures.js';
import { audienceComment } from './analytics-fixtures.js';

let svc: TestService;
let demo: RunningDemo;
let dataDir: string;

before(async () => {
  svc = await startPublishingService({ env: { ANALYTICS_SNAPSHOTS: 'off' } });
  dataDir = mkdtempSync(join(tmpdir(), 'slk-demo-'));
  demo = await startDemo({ serviceUrl: svc.url, apiKey: svc.apiKey, dataDir, host: '127.0.0.1', port: 0 });
});
after(async () => {
  await demo.close();
  await svc.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const demoApi = async (path: string, body?: unknown) => {
  const response = await fetch(`${demo.url}${path}`, body === undefined ? {} : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, json: (await response.json()) as Record<string, any> };
};

test('a post page shows analytics over time, comments and automation activity', async () => {
  assert.equal((await demoApi('/api/sandbox-account', { platform: 'instagram' })).status, 200);
  const created = await demoApi('/api/posts', { post: 'Demo post with analytics', platforms: ['instagram'], mediaUrls: [`${svc.url}/sandbox/media/photo.jpg`] });
  assert.equal(created.json.status, 'success', JSON.stringify(created.json));
  const networkPostId = created.json.postIds[0].id;
  await audienceComment(svc, 'instagram', networkPostId, 'Looks great', 'ada');
  for (let i = 0; i < 2; i++) {
    svc.clock.advance(60 * 60 * 1000);
    assert.equal((await demoApi(`/api/posts/${created.json.id}/details`)).status, 200);
  }
  const page = await demoApi(`/api/posts/${created.json.id}/details`);
  assert.equal(page.json.analytics.status, 'success', JSON.stringify(page.json.analytics));
  assert.ok(page.json.analytics.instagram.analytics.likes > 0);
  assert.equal(page.json.history.instagram.length, 3, 'one point per visit, this one last');
  assert.deepEqual(page.json.comments.instagram.map((c: any) => c.comment), ['Looks great']);
  assert.deepEqual(page.json.activity, []);
});
