/**
 * `SQLITE_MMAP_MB` (issue 31): a large SQLite file read at random (one profile's duplicate lookup at 1M posts) is
 * read through a memory map when the setting asks for one; by default it is not (mapped pages count in RSS). As an
 * operator uses it: the real service process started with the setting, a request through the documented client,
 * and the process's own memory maps (/proc/<pid>/maps name a mapped file) looked at from outside.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { createLinkClient } from '../../../src/client/index.js';
import { startChildService } from '../support/child-service.js';
import { stopChild } from '../support/stop-child.js';

const API_KEY = `sk_mmap_${'m'.repeat(40)}`;
const onSqlite = !process.env.TEST_DATABASE_URL;

/** Whether the service, started with `env`, maps its SQLite file once it has answered a request. */
async function mapsItsDatabase(env: NodeJS.ProcessEnv): Promise<boolean> {
  const dataDir = mkdtempSync(join(tmpdir(), 'slk-mmap-'));
  const service = await startChildService({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', API_KEY, DATABASE_URL: '', ...env });
  try {
    const link = await createLinkClient({ baseUrl: `${service.url}/api`, apiKey: API_KEY }).createLinkSession({ origin: 'https://app.example', expiresIn: 30 });
    assert.match(link.url, /session=/);
    // The file itself: its WAL index (`-shm`) is always mapped.
    const file = join(dataDir, 'social-link.db');
    return readFileSync(`/proc/${service.process.pid}/maps`, 'utf8').split('\n').some((line) => line.endsWith(` ${file}`));
  } finally {
    await stopChild(service.process);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

test('SQLITE_MMAP_MB maps the SQLite file into the service process; by default it is read without a map', { skip: !onSqlite }, async () => {
  assert.equal(await mapsItsDatabase({}), false);
  assert.equal(await mapsItsDatabase({ SQLITE_MMAP_MB: '64' }), true);
});
