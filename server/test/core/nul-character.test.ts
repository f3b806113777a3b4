/**
 * A NUL character in a path parameter reaches the database as a lookup value: PostgreSQL refuses it (SQLite does
 * not), and the answer must be a 4xx envelope either way, never a 500. Run with TEST_DATABASE_URL for PostgreSQL.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestService, type TestService } from '../support/test-service.js';

const ADMIN_TOKEN = 'admin-token-for-nul-character-tests-01';
let svc: TestService;
before(async () => {
  svc = await startTestService({ env: { ADMIN_TOKEN } });
});
after(() => svc.close());

test('a %00 in an id answers a 4xx envelope on the admin API and the automations API', async () => {
  const admin = await fetch(`${svc.url}/admin/api/accounts/%00/api-key`, { method: 'POST', headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } });
  const automations = await svc.api('GET', '/automations/%00/activity');
  for (const [status, body] of [
    [admin.status, await admin.json()],
    [automations.status, automations.json],
  ] as const) {
    assert.ok(status >= 400 && status < 500, `status ${status}`);
    assert.equal((body as { status: string }).status, 'error');
    assert.equal(typeof (body as { code: unknown }).code, 'number');
  }
});
