import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LinkApiError } from '../../../src/client/index.js';
import { startTestService, type TestService } from '../support/test-service.js';

describe('client webhook methods against the real service', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  it('registers, lists and unregisters a social webhook for a user profile', async () => {
    const profile = await svc.client.createProfile('Hooked');
    const call = { profileKey: profile.profileKey };
    const registered = await svc.client.registerWebhook({ action: 'social', url: 'https://hooks.example/social', secret: 's3cret' }, call);
    assert.deepEqual(registered, { status: 'success', action: 'social', url: 'https://hooks.example/social', refId: profile.refId });
    const listed = await svc.client.listWebhooks(call);
    assert.deepEqual(listed.webhooks.map((w) => [w.action, w.url, w.hasSecret]), [['social', 'https://hooks.example/social', true]]);
    assert.deepEqual((await svc.client.listWebhooks()).webhooks, [], 'the Primary Profile has none');
    const removed = await svc.client.unregisterWebhook('social', call);
    assert.equal(removed.removed, true);
    assert.deepEqual((await svc.client.listWebhooks(call)).webhooks, []);
  });

  it('surfaces the 101 for a non-https url', async () => {
    await assert.rejects(
      svc.client.registerWebhook({ action: 'social', url: 'http://hooks.example/social' }),
      (error: unknown) => error instanceof LinkApiError && error.code === 101 && error.status === 400,
    );
  });
});
