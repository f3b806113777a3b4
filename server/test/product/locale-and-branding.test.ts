import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ErrorCode, LOCALES, SessionView } from '@social-link-kit/protocol';
import { startTestService, tokenOf, type TestService } from '../support/test-service.js';

describe('link-session locale and account branding', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  const view = async (url: string) => {
    const response = await fetch(`${svc.url}/api/link/session`, { headers: { Authorization: `Bearer ${tokenOf(url)}` } });
    assert.equal(response.status, 200);
    return SessionView.parse(await response.json());
  };

  for (const locale of LOCALES) {
    it(`stores locale ${locale} and answers it in the session read and the hosted page's view`, async () => {
      const created = await svc.client.createLinkSession({ locale });
      assert.equal((await svc.client.getLinkSession(created.sessionId)).locale, locale);
      assert.equal((await view(created.url)).locale, locale);
    });
  }

  it('answers locale null when none was asked for', async () => {
    const created = await svc.client.createLinkSession({});
    assert.equal((await svc.client.getLinkSession(created.sessionId)).locale, null);
    assert.equal((await view(created.url)).locale, null);
  });

  for (const locale of ['xx', 'EN', 'pt', 'ar-EG', '', 7, null, ['en']]) {
    it(`refuses locale ${JSON.stringify(locale)} with 101 and the valid values`, async () => {
      const { status, json } = await svc.api('POST', '/profiles/link-sessions', { body: { locale } });
      assert.equal(status, 400);
      assert.equal(json.code, ErrorCode.badRequest);
      assert.equal(json.status, 'error');
      assert.deepEqual(json.details.validValues, [...LOCALES]);
    });
  }

  it('has no branding until one is set, then shows it in the view; null removes it', async () => {
    const created = await svc.client.createLinkSession({});
    assert.equal(await svc.storage.accounts.getBranding(svc.account.id), null);
    assert.equal((await view(created.url)).branding, null);

    const branding = { name: 'Acme Scheduler', logoUrl: 'https://acme.example/logo.png', color: '#12AB34' };
    await svc.storage.accounts.setBranding(svc.account.id, branding);
    assert.deepEqual(await svc.storage.accounts.getBranding(svc.account.id), { ...branding, color: '#12ab34' });
    assert.deepEqual((await view(created.url)).branding, { ...branding, color: '#12ab34' });

    await svc.storage.accounts.setBranding(svc.account.id, null);
    assert.equal(await svc.storage.accounts.getBranding(svc.account.id), null);
  });

  for (const bad of [{ logoUrl: 'http://acme.example/logo.png' }, { color: 'red' }, { color: '#123' }, { name: '' }, { name: 'x'.repeat(81) }, { extra: 1 }]) {
    it(`setBranding refuses ${JSON.stringify(bad)} and keeps what was stored`, async () => {
      await svc.storage.accounts.setBranding(svc.account.id, { name: 'Kept' });
      await assert.rejects(svc.storage.accounts.setBranding(svc.account.id, bad as never), TypeError);
      assert.deepEqual(await svc.storage.accounts.getBranding(svc.account.id), { name: 'Kept' });
    });
  }

  it('marks sandbox networks in the view (every network runs on the sandbox here)', async () => {
    const created = await svc.client.createLinkSession({ allowedSocial: ['twitter', 'bluesky', 'telegram'] });
    const networks = (await view(created.url)).networks;
    assert.deepEqual(
      networks.map((network) => [network.platform, network.sandbox]),
      [
        ['twitter', true],
        ['bluesky', true],
        ['telegram', true],
      ],
    );
  });
});
