/**
 * WAL checkpoints on a worker thread (core/db/wal-checkpointer.ts), on a real file through the SQLite driver: the
 * worker copies the service's commits back into the database file, its checkpoints do not look like another
 * process's commit (the API-key cache would be cleared by each), the WAL stays bounded under steady writes, and
 * closing ends the thread and leaves no WAL behind.
 */
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { SqliteDriver } from '../../src/core/db/sqlite-driver.js';
import { FALLBACK_CHECKPOINT_PAGES, type CheckpointResult } from '../../src/core/db/wal-checkpointer.js';

describe('WAL checkpoints on a worker thread', { timeout: 30_000 }, () => {
  let dir: string;
  let file: string;
  let driver: SqliteDriver;

  /** The next of the worker's checkpoints that satisfies `done`. */
  const checkpointWhere = (done: (result: CheckpointResult) => boolean): Promise<CheckpointResult> =>
    new Promise((resolve) => {
      const stop = driver.checkpointer!.onCheckpoint((result) => {
        if (!done(result)) return;
        stop();
        resolve(result);
      });
    });

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'slk-checkpointer-'));
    file = join(dir, 'service.db');
    driver = new SqliteDriver(file);
    await driver.exec('CREATE TABLE items (name TEXT PRIMARY KEY, body TEXT NOT NULL)');
  });
  after(async () => {
    await driver.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("copies the service's commits into the database file, without counting as another process's commit", async () => {
    const stamp = driver.foreignCommitStamp();
    await Promise.all(Array.from({ length: 50 }, (_, i) => driver.run('INSERT INTO items (name, body) VALUES (?, ?)', [`a${i}`, 'x'.repeat(500)])));
    // Far below the service connection's own threshold, so only the worker can have copied these frames.
    const copied = await checkpointWhere((result) => result.log > 0 && result.checkpointed === result.log);
    assert.ok(copied.log < FALLBACK_CHECKPOINT_PAGES);
    // A copy of the database file alone, without its WAL, holds every row.
    const copy = join(dir, 'file-only.db');
    copyFileSync(file, copy);
    const reader = new Database(copy, { readonly: true });
    try {
      assert.equal((reader.prepare('SELECT count(*) AS n FROM items').get() as { n: number }).n, 50);
    } finally {
      reader.close();
    }
    assert.equal(driver.foreignCommitStamp(), stamp, 'a checkpoint changed data_version');
  });

  it('keeps the WAL bounded while writes never stop', async () => {
    let largest = 0;
    const stop = driver.checkpointer!.onCheckpoint((result) => (largest = Math.max(largest, result.log)));
    // Writes in every turn for a while (one commit per turn), so the worker's checkpoints always race a commit.
    for (let turn = 0; turn < 3000; turn++) {
      await driver.run('INSERT INTO items (name, body) VALUES (?, ?)', [`b${turn}`, 'y'.repeat(2000)]);
    }
    stop();
    const [afterWrites] = (await driver.all('PRAGMA wal_checkpoint(PASSIVE)')) as Array<{ log: number }>;
    // Each commit adds two pages (the row's and its key's); without restarts the WAL would hold over 6,000 frames.
    // The fallback checkpoint of the service's connection bounds it.
    assert.ok(largest > 0, 'the worker reported no checkpoint');
    assert.ok(afterWrites!.log <= FALLBACK_CHECKPOINT_PAGES + 10, `WAL grew to ${afterWrites!.log} frames`);
  });

  it('closing ends the thread and leaves no WAL file', async () => {
    const other = join(dir, 'closing.db');
    const closing = new SqliteDriver(other);
    await closing.exec('CREATE TABLE t (x INTEGER)');
    await closing.run('INSERT INTO t (x) VALUES (1)');
    await closing.close();
    assert.equal(existsSync(`${other}-wal`), false);
    const reopened = new Database(other, { readonly: true });
    assert.equal((reopened.prepare('SELECT x FROM t').get() as { x: number }).x, 1);
    reopened.close();
  });
});
