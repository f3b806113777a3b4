/**
 * The SQLite driver's group commit and statement cache (core/db/sqlite-driver.ts, write-batch.ts), on a real file:
 * writes of one turn are committed together and each is answered only once committed (and synced where it must be:
 * sqlite-durable-commit.test.ts); a failing write fails alone; a read never runs inside another caller's open
 * transaction.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Row } from '../../src/core/db/rows.js';
import { SqliteDriver } from '../../src/core/db/sqlite-driver.js';
import { readSqliteSynchronous } from '../../src/core/db/sqlite-settings.js';
import { committedRows } from '../support/sqlite-observe.js';

describe('SQLite group commit', () => {
  let dir: string;
  let file: string;
  let driver: SqliteDriver;
  /** As another process would read the file: only committed rows. */
  const committedNames = (): string[] => committedRows(file, 'SELECT name FROM items ORDER BY name').map((row) => row.name as string);

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'slk-write-batch-'));
    file = join(dir, 'batch.db');
    driver = new SqliteDriver(file);
    await driver.exec('CREATE TABLE items (name TEXT PRIMARY KEY)');
  });
  after(async () => {
    await driver.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers each of many concurrent writes only once all are committed, and a duplicate fails alone', async () => {
    const names = Array.from({ length: 40 }, (_, i) => `a${String(i).padStart(2, '0')}`);
    const writes = names.map((name) =>
      driver.run('INSERT INTO items (name) VALUES (?)', [name]).then((changes) => {
        // Answered means committed: another connection already sees this row.
        assert.ok(committedNames().includes(name), `${name} answered before it was committed`);
        return changes;
      }),
    );
    const duplicate = driver.run('INSERT INTO items (name) VALUES (?)', ['a07']);
    assert.deepEqual(await Promise.all(writes), names.map(() => 1));
    await assert.rejects(duplicate, /UNIQUE constraint failed/);
    assert.deepEqual(committedNames(), names);
  });

  it('a read started during a transaction waits for it and sees its result', async () => {
    let read: Promise<Row[]> | undefined;
    const transaction = driver.transaction(async (tx) => {
      await tx.run('INSERT INTO items (name) VALUES (?)', ['b1']);
      read = driver.all("SELECT name FROM items WHERE name LIKE 'b%' ORDER BY name");
      // The event loop turns while the transaction is open: the read still waits.
      await new Promise((resolve) => setTimeout(resolve, 20));
      await tx.run('INSERT INTO items (name) VALUES (?)', ['b2']);
    });
    await transaction;
    assert.deepEqual((await read!).map((row) => row.name), ['b1', 'b2']);
  });

  it('a malformed statement is refused to its caller without touching the batch', async () => {
    const good = driver.run('INSERT INTO items (name) VALUES (?)', ['c1']);
    await assert.rejects(driver.run('INSERT INTO nowhere (name) VALUES (?)', ['c2']), /no such table/);
    assert.equal(await good, 1);
    assert.equal((await driver.get("SELECT COUNT(*) AS n FROM items WHERE name LIKE 'c%'"))!.n, 1);
  });
});

describe('SQLITE_SYNCHRONOUS', () => {
  it('is mixed unless set to full or normal, and refuses anything else', () => {
    // What each setting makes wait for a sync: sqlite-durable-commit.test.ts.
    assert.equal(readSqliteSynchronous({}), 'mixed');
    assert.equal(readSqliteSynchronous({ SQLITE_SYNCHRONOUS: 'FULL' }), 'full');
    assert.equal(readSqliteSynchronous({ SQLITE_SYNCHRONOUS: 'NORMAL' }), 'normal');
    assert.throws(() => readSqliteSynchronous({ SQLITE_SYNCHRONOUS: 'off' }), /must be "mixed", "full" or "normal"/);
  });
});
