/**
 * Issue 31: SANDBOX_LATENCY_MS makes the sandbox networks answer as slowly as real ones, so publishing benchmarks
 * measure waiting on networks; the feed page people look at is not slowed. Real service, real HTTP on loopback.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestService, type TestService } from '../support/test-service.js';

const LATENCY_MS = 1_200;
let svc: TestService;
before(async () => {
  svc = await startTestService({ env: { SANDBOX_NETWORKS: 'all', SANDBOX_LATENCY_MS: String(LATENCY_MS) } });
});
after(() => svc.close());

async function timed(path: string): Promise<{ ms: number; status: number }> {
  const started = performance.now();
  const response = await fetch(`${svc.url}${path}`);
  await response.arrayBuffer();
  return { ms: performance.now() - started, status: response.status };
}

test('a sandbox network API call waits the set latency; the feed page does not', async () => {
  const [linkedin, generic] = await Promise.all([timed('/sandbox/linkedin/v2/userinfo'), timed('/sandbox/net/reddit/api/v1/me')]);
  assert.ok(linkedin.ms >= LATENCY_MS, `linkedin answered in ${linkedin.ms} ms (status ${linkedin.status})`);
  assert.ok(generic.ms >= LATENCY_MS, `generic answered in ${generic.ms} ms (status ${generic.status})`);
  assert.ok(linkedin.ms < 2 * LATENCY_MS, 'both waited together, not one after the other');
  const feed = await timed('/sandbox/feed');
  assert.ok(feed.ms < LATENCY_MS, `the feed page answered in ${feed.ms} ms`);
});

test('an immediate post through the API waits at least the sandbox latency', async () => {
  await svc.api('POST', '/sandbox/accounts', { body: { platform: 'linkedin' } });
  const started = performance.now();
  const post = await svc.api('POST', '/post', { body: { post: 'A post while the sandbox network is slow', platforms: ['linkedin'] } });
  const ms = performance.now() - started;
  assert.equal(post.status, 200, JSON.stringify(post.json));
  assert.ok(ms >= LATENCY_MS, `the post was answered in ${ms} ms`);
});
