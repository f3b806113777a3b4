/**
 * core/db/commit-watch.ts reads another connection's commits (the driver's foreignCommitStamp) once per turn that
 * reads requests, and on every call anywhere else: counted on a driver that counts its reads, and shown on a real
 * SQLite file, where a second connection's commit and this connection's own writes each change the stamp.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { commitStamp, foreignCommitStamp, requestArrived } from '../../src/core/db/commit-watch.js';
import type { SqlDriver } from '../../src/core/db/sql-driver.js';
import { SqliteDriver } from '../../src/core/db/sqlite-driver.js';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

function countingDriver() {
  const driver = { reads: 0, stamp: 1, foreignCommitStamp: () => (driver.reads++, driver.stamp) };
  return driver;
}

describe('commit watch', () => {
  it('reads the foreign stamp on every call outside a turn of requests', async () => {
    await nextTurn();
    const driver = countingDriver();
    foreignCommitStamp(driver as unknown as SqlDriver);
    foreignCommitStamp(driver as unknown as SqlDriver);
    assert.equal(driver.reads, 2);
  });

  it('reads it once in a turn of requests, after the turn’s first arrival, and again in the next such turn', async () => {
    await nextTurn();
    const driver = countingDriver();
    const watched = driver as unknown as SqlDriver;
    foreignCommitStamp(watched);
    requestArrived();
    driver.stamp = 2;
    assert.equal(foreignCommitStamp(watched), 2, 'a read from before the first arrival is not reused');
    requestArrived();
    driver.stamp = 3;
    assert.equal(foreignCommitStamp(watched), 2);
    assert.equal(driver.reads, 2);
    await nextTurn();
    assert.equal(foreignCommitStamp(watched), 3, 'after the turn, calls read again');
    requestArrived();
    driver.stamp = 4;
    assert.equal(foreignCommitStamp(watched), 4);
    assert.equal(foreignCommitStamp(watched), 4);
    assert.equal(driver.reads, 4);
  });

  it('on SQLite, the stamp changes with this connection’s writes and another connection’s commits, not with reads', async () => {
    await nextTurn();
    const dir = mkdtempSync(join(tmpdir(), 'slk-commit-watch-'));
    const file = join(dir, 'watch.db');
    const driver = new SqliteDriver(file);
    const other = new SqliteDriver(file);
    try {
      await driver.exec('CREATE TABLE t (v TEXT)');
      const first = await commitStamp(driver);
      await driver.all('SELECT * FROM t');
      assert.equal(await commitStamp(driver), first);
      await driver.run('INSERT INTO t (v) VALUES (?)', ['own']);
      const afterOwn = await commitStamp(driver);
      assert.notEqual(afterOwn, first);
      await other.run('INSERT INTO t (v) VALUES (?)', ['foreign']);
      assert.notEqual(await commitStamp(driver), afterOwn);
    } finally {
      await other.close();
      await driver.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
