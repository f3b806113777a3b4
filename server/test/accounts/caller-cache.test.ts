/**
 * The API key → account cache (accounts/caller-cache.ts) never serves an answer a write has changed: each test
 * first makes the key answer (so it is cached), then changes it and expects the change on the very next request.
 * In-process writes (admin API) clear it through the stores; a write from another connection (here raw SQL on the
 * same file, as the admin CLI would make from its own process) is seen through SQLite's data_version.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestService, type TestService } from '../support/test-service.js';

const ADMIN_TOKEN = 'admin-token-for-caller-cache-0123456789';

describe('API key cache', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ env: { ADMIN_TOKEN } });
  });
  after(async () => {
    await svc.close();
  });

  async function admin(method: string, path: string, body?: unknown) {
    const response = await fetch(`${svc.url}/admin/api${path}`, {
      method,
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return (await response.json()) as Record<string, any>;
  }

  const user = async (apiKey: string, profileKey?: string) => {
    const response = await fetch(`${svc.url}/api/user`, {
      headers: { Authorization: `Bearer ${apiKey}`, ...(profileKey && { 'Profile-Key': profileKey }) },
    });
    return { status: response.status, json: (await response.json()) as Record<string, any> };
  };

  async function newAccount(name: string): Promise<{ id: string; apiKey: string }> {
    const created = await admin('POST', '/accounts', { name, plan: 'business' });
    return { id: created.account.id, apiKey: created.apiKey };
  }

  it('a key rotated through the admin API fails on the next request', async () => {
    const { id, apiKey } = await newAccount('Rotate Co');
    for (let i = 0; i < 3; i++) assert.equal((await user(apiKey)).status, 200);
    const rotated = await admin('POST', `/accounts/${id}/api-key`);
    assert.equal((await user(apiKey)).status, 401);
    assert.equal((await user(rotated.apiKey)).status, 200);
  });

  it('a key removed by another connection (the admin CLI, another process) fails on the next request', async () => {
    const { id, apiKey } = await newAccount('Elsewhere Co');
    for (let i = 0; i < 3; i++) assert.equal((await user(apiKey)).status, 200);
    const { changes } = await svc.sql('DELETE FROM api_keys WHERE account_id = ?', [id]);
    assert.equal(changes, 1);
    assert.equal((await user(apiKey)).status, 401);
  });

  it('an account change shows on the next request', async () => {
    const { id, apiKey } = await newAccount('Plan Co');
    assert.equal((await user(apiKey)).status, 200);
    await admin('PATCH', `/accounts/${id}`, { allowedOrigins: ['https://plan-co.test'] });
    const before = await fetch(`${svc.url}/api/profiles/link-sessions`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ origin: 'https://plan-co.test' }),
    });
    assert.equal(before.status, 200, await before.text());
    await admin('PATCH', `/accounts/${id}`, { allowedOrigins: ['https://other.test'] });
    const after = await fetch(`${svc.url}/api/profiles/link-sessions`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ origin: 'https://plan-co.test' }),
    });
    assert.equal(after.status, 400, 'the origin removed from the allowlist is refused at once');
  });

  it('a deleted profile’s Profile-Key answers 404 on the next request', async () => {
    const created = await svc.api('POST', '/profiles', { body: { title: 'Short-lived' } });
    const profileKey = created.json.profileKey as string;
    for (let i = 0; i < 3; i++) assert.equal((await user(svc.apiKey, profileKey)).status, 200);
    const deleted = await svc.api('DELETE', '/profiles', { headers: { 'Profile-Key': profileKey } });
    assert.equal(deleted.status, 200, JSON.stringify(deleted.json));
    assert.equal((await user(svc.apiKey, profileKey)).status, 404);
  });
});
