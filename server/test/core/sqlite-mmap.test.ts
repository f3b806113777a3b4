/**
 * `SQLITE_MMAP_MB` (issue 31): a large SQLite file read at random (one profile's duplicate lookup at 1M posts) is
 * read through a memory map when the setting asks for one; by default it is not (mapped pages count in RSS). Read
 * back from the service's own connection, on the real service started from the setting.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestService } from '../support/test-service.js';

const onSqlite = !process.env.TEST_DATABASE_URL;

async function mmapSizeWith(env: NodeJS.ProcessEnv): Promise<number> {
  const svc = await startTestService({ env });
  try {
    // The service's own connection (svc.sql opens another, which has its own setting).
    const row = (await svc.storage.driver.get('PRAGMA mmap_size'))!;
    const posted = await svc.api('POST', '/sandbox/accounts', { body: { platform: 'linkedin' } });
    assert.equal(posted.status, 200, JSON.stringify(posted.json));
    return Number(Object.values(row)[0]);
  } finally {
    await svc.close();
  }
}

test('SQLITE_MMAP_MB maps that much of the SQLite file; by default nothing is mapped', { skip: !onSqlite }, async () => {
  assert.equal(await mmapSizeWith({}), 0);
  assert.equal(await mmapSizeWith({ SQLITE_MMAP_MB: '64' }), 64 * 1024 * 1024);
});
