/**
 * Grouped reads on SQLite (sqlite-driver.ts groupReads, issue 31): after `groupReads()` the reads of the rest of the
 * event-loop turn share one read transaction, seen here through a second connection (another process's view) that
 * commits between two reads: the second grouped read still sees the snapshot of the first, an ungrouped one sees the
 * new row, and the next turn's read sees it too. A write in the turn (a batch, `INSERT … RETURNING` through get, a
 * transaction) ends the group first: it commits as before and later reads see it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { after, before, beforeEach, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { SqliteDriver } from '../../src/core/db/sqlite-driver.js';
import { committedRows } from '../support/sqlite-observe.js';

describe('SQLite: grouped reads of one turn', () => {
  let dir: string;
  let file: string;
  let driver: SqliteDriver;
  let other: Database.Database;
  const count = async () => Number((await driver.get('SELECT COUNT(*) AS n FROM items'))!.n);
  const names = () => committedRows(file, 'SELECT name FROM items ORDER BY name').map((row) => row.name as string);

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'slk-read-groups-'));
    file = join(dir, 'reads.db');
    driver = new SqliteDriver(file);
    await driver.exec('CREATE TABLE items (name TEXT PRIMARY KEY)');
    other = new Database(file);
    other.pragma('busy_timeout = 5000');
  });
  beforeEach(() => driver.exec('DELETE FROM items'));
  after(async () => {
    other.close();
    await driver.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads of a grouped turn share one snapshot; the next turn reads anew', async () => {
    driver.groupReads();
    assert.equal(await count(), 0);
    other.prepare('INSERT INTO items (name) VALUES (?)').run('foreign');
    assert.equal(await count(), 0, 'the second read of the turn is in the first one\'s read transaction');
    await nextTurn();
    await nextTurn();
    assert.equal(await count(), 1, 'the group ended with its turn');
  });

  it('without groupReads each read is its own transaction', async () => {
    assert.equal(await count(), 0);
    other.prepare('INSERT INTO items (name) VALUES (?)').run('foreign');
    assert.equal(await count(), 1);
  });

  it('a write through get (INSERT … RETURNING) ends the group and commits at once', async () => {
    driver.groupReads();
    assert.equal(await count(), 0);
    const row = await driver.get('INSERT INTO items (name) VALUES (?) RETURNING name', ['returned']);
    assert.equal(row?.name, 'returned');
    assert.deepEqual(names(), ['returned'], 'committed before the turn ends');
    assert.equal(await count(), 1);
  });

  it('a batch write and a transaction in a grouped turn commit as before, and later reads see them', async () => {
    driver.groupReads();
    assert.equal(await count(), 0);
    const written = driver.run('INSERT INTO items (name) VALUES (?)', ['batched']);
    const inTx = driver.transaction(async (tx) => {
      await tx.run('INSERT INTO items (name) VALUES (?)', ['transaction']);
      return tx.get('SELECT COUNT(*) AS n FROM items');
    });
    assert.equal(await written, 1);
    assert.equal(Number((await inTx)!.n), 2);
    assert.deepEqual(names(), ['batched', 'transaction']);
    driver.groupReads();
    assert.equal(await count(), 2);
  });
});
