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

/** A GET's status, how long it took, and when (performance.now()) its answer was read. */
async function timed(pathOrUrl: string): Promise<{ ms: number; endedAt: number; status: number }> {
  const started = performance.now();
  const response = await fetch(new URL(pathOrUrl, svc.url));
  await response.arrayBuffer();
  const endedAt = performance.now();
  return { ms: endedAt - started, endedAt, status: response.status };
}

test('a sandbox network API call waits the set latency; the feed page does not', async () => {
  // All three asked at once. Only lower bounds on time: a loaded machine makes every answer later, never earlier.
  // What is not waited for is told by order and by the same moment's siblings, not by an upper bound on time.
  const feedUrl = (await svc.api('GET', '/sandbox/feed-url')).json.url as string;
  const [linkedin, generic, feed] = await Promise.all([timed('/sandbox/linkedin/v2/userinfo'), timed('/sandbox/net/reddit/api/v1/me'), timed(feedUrl)]);
  assert.ok(linkedin.ms >= LATENCY_MS, `linkedin answered in ${linkedin.ms} ms (status ${linkedin.status})`);
  assert.ok(generic.ms >= LATENCY_MS, `generic answered in ${generic.ms} ms (status ${generic.status})`);
  // One after the other, the later would end a whole latency after the earlier; waiting together, both wake at once.
  const apart = Math.abs(linkedin.endedAt - generic.endedAt);
  assert.ok(apart < LATENCY_MS, `both waited together, not one after the other: answers ${apart} ms apart`);
  assert.equal(feed.status, 200);
  assert.ok(feed.endedAt < Math.min(linkedin.endedAt, generic.endedAt), `the feed page (${feed.ms} ms) was answered before the API calls`);
});

test('an immediate post through the API waits at least the sandbox latency', async () => {
  await svc.api('POST', '/sandbox/accounts', { body: { platform: 'linkedin' } });
  const started = performance.now();
  const post = await svc.api('POST', '/post', { body: { post: 'A post while the sandbox network is slow', platforms: ['linkedin'] } });
  const ms = performance.now() - started;
  assert.equal(post.status, 200, JSON.stringify(post.json));
  assert.ok(ms >= LATENCY_MS, `the post was answered in ${ms} ms`);
});
