/**
 * Spec 4.9 rule 10: a personal instagram account cannot publish. The sandbox links one with
 * `{platform: 'instagram', accountType: 'PERSONAL'}`; a professional one (the default) publishes.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { TestService } from '../support/test-service.js';
import { linkSandboxAccounts, startPublishingService } from './publishing-fixtures.js';

let svc: TestService;
before(async () => {
  svc = await startPublishingService();
  await linkSandboxAccounts(svc, ['facebook']);
});
after(() => svc.close());

const photo = () => `${svc.url}/sandbox/media/photo.jpg`;

test('a personal instagram account is refused with 138 (relink), the other platforms publish', async () => {
  const linked = await svc.api('POST', '/sandbox/accounts', { body: { platform: 'instagram', accountType: 'PERSONAL' } });
  assert.equal(linked.status, 200, JSON.stringify(linked.json));
  const created = await svc.api('POST', '/post', { body: { post: 'From a personal account', platforms: ['instagram', 'facebook'], mediaUrls: [photo()] } });
  assert.equal(created.status, 200, JSON.stringify(created.json));
  assert.equal(created.json.status, 'error');
  const [error] = created.json.errors;
  assert.equal(error.platform, 'instagram');
  assert.equal(error.code, 138);
  assert.match(error.message, /personal account/);
  assert.deepEqual(created.json.postIds.map((entry: any) => entry.platform), ['facebook']);

  const scheduled = await svc.api('POST', '/post', { body: { post: 'Later from a personal account', platforms: ['instagram'], mediaUrls: [photo()], scheduleDate: '2026-11-23T12:00:00Z' } });
  assert.equal(scheduled.status, 400, JSON.stringify(scheduled.json));
  assert.equal(scheduled.json.code, 138);
});

test('a business instagram account publishes; accountType is refused for other networks', async () => {
  const linked = await svc.api('POST', '/sandbox/accounts', { body: { platform: 'instagram', accountType: 'BUSINESS' } });
  assert.equal(linked.status, 200, JSON.stringify(linked.json));
  const created = await svc.api('POST', '/post', { body: { post: 'From a business account', platforms: ['instagram'], mediaUrls: [photo()] } });
  assert.equal(created.status, 200, JSON.stringify(created.json));
  assert.equal(created.json.status, 'success', JSON.stringify(created.json));
  const refused = await svc.api('POST', '/sandbox/accounts', { body: { platform: 'twitter', accountType: 'PERSONAL' } });
  assert.equal(refused.status, 400);
  assert.equal(refused.json.code, 101);
});
