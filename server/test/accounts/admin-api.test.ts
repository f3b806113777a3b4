/**
 * The admin HTTP API: absent without ADMIN_TOKEN, 401 for a wrong token, the same operations as the CLI behind the
 * right one, every bad input a 4xx envelope.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestService, type TestService } from '../support/test-service.js';

const ADMIN_TOKEN = 'admin-token-for-tests-0123456789abcdef';

describe('admin API', () => {
  let svc: TestService;
  let off: TestService;
  before(async () => {
    svc = await startTestService({ env: { ADMIN_TOKEN } });
    off = await startTestService();
  });
  after(async () => {
    await svc.close();
    await off.close();
  });

  async function admin(method: string, path: string, body?: unknown, token = ADMIN_TOKEN) {
    const response = await fetch(`${svc.url}/admin/api${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body !== undefined && { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: response.status, headers: response.headers, json: (await response.json()) as Record<string, any> };
  }

  it('does not exist without ADMIN_TOKEN', async () => {
    const response = await fetch(`${off.url}/admin/api/accounts`, { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } });
    assert.equal(response.status, 404);
    assert.equal(((await response.json()) as { code: number }).code, 101);
  });

  it('refuses a missing or wrong token with 401', async () => {
    for (const token of ['', 'admin-token-for-tests-0123456789abcdeX', svc.apiKey]) {
      const { status, json } = await admin('GET', '/accounts', undefined, token);
      assert.equal(status, 401);
      assert.equal(json.status, 'error');
    }
  });

  it('creates, changes, rotates and lists', async () => {
    const created = await admin('POST', '/accounts', { name: 'Http Co', plan: 'launch', domains: ['http-co'] });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    assert.equal(created.headers.get('cache-control'), 'no-store');
    const id = created.json.account.id as string;
    const key = created.json.apiKey as string;
    const changed = await admin('PATCH', `/accounts/${id}`, {
      plan: 'premium',
      addOns: ['max-pack'],
      allowedOrigins: ['https://http-co.test'],
      instagramLinkMethod: 'facebook',
      twitterCredentialsPolicy: 'service-app',
      // Stored by the account store's branding rules (src/protocol/branding.ts): the colour comes back lower-case.
      branding: { name: 'Http Co', logoUrl: 'https://http-co.test/logo.png', color: '#AABBCC' },
    });
    assert.equal(changed.status, 200, JSON.stringify(changed.json));
    assert.equal(changed.json.account.plan, 'premium');
    assert.deepEqual(changed.json.account.branding, { name: 'Http Co', logoUrl: 'https://http-co.test/logo.png', color: '#aabbcc' });
    const rotated = await admin('POST', `/accounts/${id}/api-key`);
    assert.notEqual(rotated.json.apiKey, key);
    assert.equal((await fetch(`${svc.url}/api/user`, { headers: { Authorization: `Bearer ${key}` } })).status, 401);
    const quota = await admin('PUT', `/profiles/${created.json.account.primaryProfile.refId}/quota`, { monthlyPostQuota: 10 });
    assert.equal(quota.json.monthlyPostQuota, 10);
    const linked = await admin('GET', `/accounts/${id}/linked-accounts`);
    assert.equal(linked.json.profiles[0].monthlyPostQuota, 10);
    const list = await admin('GET', '/accounts');
    assert.ok(list.json.accounts.length >= 2);
  });

  it('answers every bad input with a 4xx envelope', async () => {
    const id = svc.account.id;
    const cases: [string, string, unknown, number][] = [
      ['POST', '/accounts', '{not json', 400],
      ['POST', '/accounts', [], 400],
      ['POST', '/accounts', {}, 400],
      ['POST', '/accounts', { name: 'x', plan: 'gold' }, 400],
      ['PATCH', `/accounts/${id}`, { surprise: true }, 400],
      ['PATCH', `/accounts/${id}`, { branding: { logoUrl: 'javascript:alert(1)' } }, 400],
      ['PATCH', `/accounts/${id}`, { branding: { name: 'x'.repeat(81) } }, 400],
      ['PATCH', `/accounts/${id}`, { allowedOrigins: ['*'] }, 400],
      ['PATCH', `/accounts/${id}`, { domains: [] }, 400],
      ['PATCH', '/accounts/acct_nope', { plan: 'free' }, 404],
      ['POST', '/accounts/acct_nope/api-key', undefined, 404],
      ['GET', '/accounts/acct_nope/linked-accounts', undefined, 404],
      ['PUT', '/profiles/nope/quota', { monthlyPostQuota: 1 }, 404],
      ['PUT', `/profiles/${svc.primaryProfile.id}/quota`, { monthlyPostQuota: 1.5 }, 400],
      ['DELETE', '/accounts', undefined, 404],
    ];
    for (const [method, path, body, status] of cases) {
      const result = await admin(method, path, body);
      assert.equal(result.status, status, `${method} ${path} ${JSON.stringify(body)}: ${JSON.stringify(result.json)}`);
      assert.deepEqual(Object.keys(result.json).filter((k) => ['status', 'action', 'code', 'message'].includes(k)).length, 4);
    }
  });
  it('reads, sets and clears an operator network status, which integrators then see (#28)', async () => {
    const listed = await admin('GET', '/network-status');
    assert.equal(listed.status, 200, JSON.stringify(listed.json));
    assert.equal(listed.json.networks.find((n: { platform: string }) => n.platform === 'reddit').source, 'observed');
    const set = await admin('PUT', '/network-status/reddit', { status: 'down', message: 'Reddit API outage' });
    assert.equal(set.status, 200, JSON.stringify(set.json));
    const integrator = await svc.api('GET', '/networks/status');
    const reddit = integrator.json.networks.find((n: { platform: string }) => n.platform === 'reddit');
    assert.deepEqual([reddit.status, reddit.source, reddit.message], ['down', 'operator', 'Reddit API outage']);
    const cleared = await admin('DELETE', '/network-status/reddit');
    assert.equal(cleared.json.networks.find((n: { platform: string }) => n.platform === 'reddit').source, 'observed');
    for (const [path, body] of [
      ['/network-status/myspace', { status: 'down' }],
      ['/network-status/reddit', { status: 'sideways' }],
      ['/network-status/reddit', { status: 'down', extra: 1 }],
      ['/network-status/reddit', { status: 'down', message: 'x'.repeat(501) }],
    ] as const) {
      const refused = await admin('PUT', path, body);
      assert.equal(refused.status, 400, `${path} ${JSON.stringify(body)}: ${JSON.stringify(refused.json)}`);
      assert.equal(refused.json.status, 'error');
      assert.equal(typeof refused.json.code, 'number');
    }
  });
});
