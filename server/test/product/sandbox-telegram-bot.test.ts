import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ErrorCode } from '@social-link-kit/protocol';
import { startTestService, tokenOf, type TestService } from '../support/test-service.js';

describe('the sandbox Telegram bot (POST /sandbox/telegram-bot)', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  const post = (path: string, body: unknown, token?: string) =>
    fetch(`${svc.url}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(token && { Authorization: `Bearer ${token}` }) },
      body: JSON.stringify(body),
    });

  it('completes telegram with the code the page shows, once', async () => {
    const session = await svc.client.createLinkSession({ allowedSocial: ['telegram'] });
    const token = tokenOf(session.url);
    const { code } = (await (await post('/api/link/connect/telegram', {}, token)).json()) as { code: string };
    const first = await post('/sandbox/telegram-bot', { code });
    assert.equal(first.status, 200);
    assert.deepEqual(await first.json(), { status: 'success', linked: true });
    assert.deepEqual((await svc.client.getLinkSession(session.sessionId)).completedNetworks, ['telegram']);
    const again = await post('/sandbox/telegram-bot', { code });
    assert.deepEqual(await again.json(), { status: 'success', linked: false });
  });

  it('answers an unknown code with linked false, and a malformed one with 400 (101)', async () => {
    assert.deepEqual(await (await post('/sandbox/telegram-bot', { code: 'ZZZZZZZZ' })).json(), { status: 'success', linked: false });
    for (const code of ['short', 12345678, null, 'ABCD-EFG']) {
      const response = await post('/sandbox/telegram-bot', { code });
      assert.equal(response.status, 400);
      assert.equal(((await response.json()) as { code: number }).code, ErrorCode.badRequest);
    }
  });

  it('is not there when telegram uses a real bot', async () => {
    const real = await startTestService({ env: { TELEGRAM_BOT_USERNAME: 'AcmeBot', TELEGRAM_WEBHOOK_SECRET: 's3cret' } });
    try {
      const response = await fetch(`${real.url}/sandbox/telegram-bot`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"code":"ABCDEFGH"}' });
      assert.equal(response.status, 404);
    } finally {
      await real.close();
    }
  });
});
