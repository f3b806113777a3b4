import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { requestStartUrl } from '../support/oauth-driver.js';
import { startTestService, tokenOf, type TestService } from '../support/test-service.js';

describe('/connect/start', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  it('redirects to the network with Cache-Control no-store and no referrer (the address holds a single-use state)', async () => {
    const token = tokenOf((await svc.client.createLinkSession({ origin: 'https://app.example' })).url);
    const startUrl = await requestStartUrl(svc, token, 'linkedin');
    const response = await fetch(startUrl, { redirect: 'manual' });
    assert.equal(response.status, 302);
    assert.match(response.headers.get('location') ?? '', /state=/);
    assert.equal(response.headers.get('cache-control'), 'no-store');
    assert.equal(response.headers.get('referrer-policy'), 'no-referrer');
  });
});
