/**
 * Every answer carries the headers app.ts promises (set before the route runs, so Hono need not copy the response):
 * `Referrer-Policy: no-referrer` and `nosniff` everywhere, `Cache-Control: no-store` on the API, including errors.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestService, type TestService } from '../support/test-service.js';

describe('common response headers', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  const expectCommon = (headers: Headers, api: boolean) => {
    assert.equal(headers.get('referrer-policy'), 'no-referrer');
    assert.equal(headers.get('x-content-type-options'), 'nosniff');
    if (api) assert.equal(headers.get('cache-control'), 'no-store');
  };

  it('on an API success, an API error, an unknown route and a page', async () => {
    const created = await svc.api('POST', '/profiles/link-sessions', { body: {} });
    assert.equal(created.status, 200);
    expectCommon(created.headers, true);
    const invalid = await svc.api('POST', '/profiles/link-sessions', { body: { nope: 1 } });
    assert.equal(invalid.status, 400);
    expectCommon(invalid.headers, true);
    const unauthorized = await svc.api('GET', '/profiles/link-sessions/x', { headers: { Authorization: 'Bearer wrong' } });
    assert.equal(unauthorized.status, 401);
    expectCommon(unauthorized.headers, true);
    const unknown = await fetch(`${svc.url}/api/nowhere`);
    assert.equal(unknown.status, 404);
    expectCommon(unknown.headers, true);
    await unknown.body?.cancel();
    const health = await fetch(`${svc.url}/health`);
    expectCommon(health.headers, false);
    assert.equal(health.headers.get('cache-control'), null);
    await health.body?.cancel();
  });
});
