/**
 * Spec 5.3, 5.7: "Widget needs the max-pack add-on". The service enforces it, not only the hosted page's screen: the
 * page's connect and disconnect calls carry the widget's mode (`X-Link-Embed: frame|popup`), and without max-pack
 * they are refused with the plan-gating error (403, code 104, reason `max_pack_required`) in the envelope. Calls
 * without the header (direct mode, which the spec allows) and accounts with max-pack stay open. Real service on
 * loopback, real database, the sandbox networks.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { EMBED_MODE_HEADER } from '@social-link-kit/protocol/constants.js';
import { startTestService, tokenOf, type TestService } from '../support/test-service.js';

describe('the widget (frame or popup) needs max-pack: the service refuses it', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ account: { maxPack: false } });
  });
  after(() => svc.close());

  const linkToken = async () => tokenOf((await svc.client.createLinkSession({ origin: 'https://integrator.example' })).url);
  const call = async (method: string, path: string, token: string, embed?: string) => {
    const response = await fetch(`${svc.url}/api/link${path}`, { method, headers: { Authorization: `Bearer ${token}`, ...(embed && { [EMBED_MODE_HEADER]: embed }) } });
    return { status: response.status, json: (await response.json()) as Record<string, any> };
  };
  const setMaxPack = (on: boolean) => svc.sql('UPDATE accounts SET max_pack = ? WHERE id = ?', [on ? 1 : 0, svc.account.id]);

  for (const embed of ['frame', 'popup']) {
    it(`${embed} mode without max-pack: connecting and disconnecting answer 403 with code 104, in the envelope`, async () => {
      const token = await linkToken();
      for (const [method, path] of [['POST', '/connect/reddit'], ['DELETE', '/accounts/reddit']] as const) {
        const refused = await call(method, path, token, embed);
        assert.equal(refused.status, 403, JSON.stringify(refused.json));
        assert.deepEqual([refused.json.status, refused.json.action, refused.json.code], ['error', 'link session', 104]);
        assert.deepEqual(refused.json.details, { embed, reason: 'max_pack_required' });
        assert.match(refused.json.message, /max-pack/);
      }
      // Reading the session stays open, so the page can explain (embeddable: false).
      const view = await call('GET', '/session', token, embed);
      assert.deepEqual([view.status, view.json.embeddable], [200, false]);
    });
  }

  it('direct mode (no header: a page opened without the widget) connects without max-pack', async () => {
    const started = await call('POST', '/connect/reddit', await linkToken());
    assert.equal(started.status, 200, JSON.stringify(started.json));
    assert.match(started.json.startUrl, /\/connect\/start\?ticket=/);
  });

  it('an unknown embed mode is a bad request (101)', async () => {
    const refused = await call('POST', '/connect/reddit', await linkToken(), 'sidebar');
    assert.deepEqual([refused.status, refused.json.code], [400, 101]);
  });

  it('with max-pack, the widget connects in either mode', async () => {
    await setMaxPack(true);
    try {
      for (const embed of ['frame', 'popup']) {
        const started = await call('POST', '/connect/reddit', await linkToken(), embed);
        assert.equal(started.status, 200, JSON.stringify(started.json));
      }
    } finally {
      await setMaxPack(false);
    }
  });
});
