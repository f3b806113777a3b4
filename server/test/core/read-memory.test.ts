/**
 * core/db/read-memory.ts on a real SQLite file: it does keep answers (post-read-memory.test.ts would pass with a
 * memory that always reads), drops them at any commit of this connection or another, never serves what was read
 * while a commit landed, asks `fresh` at each hit, bounds what it keeps by size, and stays off without a stamp.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ReadMemory } from '../../src/core/db/read-memory.js';
import type { SqlDriver } from '../../src/core/db/sql-driver.js';
import { SqliteDriver } from '../../src/core/db/sqlite-driver.js';

describe('ReadMemory', () => {
  let dir: string;
  let driver: SqliteDriver;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'slk-read-memory-'));
    driver = new SqliteDriver(join(dir, 'memory.db'));
    await driver.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
  });
  after(async () => {
    await driver.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A read that counts its calls and answers `value`. */
  function countingRead(value: string | null = 'answer') {
    const read = async () => {
      read.calls += 1;
      return value;
    };
    read.calls = 0;
    return read;
  }

  it('keeps an answer until this connection or another commits', async () => {
    const memory = new ReadMemory<string>(driver);
    const read = countingRead();
    assert.equal(await memory.find('k', read), 'answer');
    assert.equal(await memory.find('k', read), 'answer');
    assert.equal(read.calls, 1);
    await driver.run('INSERT INTO t (v) VALUES (?)', ['x']);
    await memory.find('k', read);
    assert.equal(read.calls, 2);
    const other = new SqliteDriver(join(dir, 'memory.db'));
    try {
      await other.run('INSERT INTO t (v) VALUES (?)', ['from elsewhere']);
    } finally {
      await other.close();
    }
    await memory.find('k', read);
    assert.equal(read.calls, 3);
  });

  it('never serves an answer read while a commit landed (the stamp is taken before the read)', async () => {
    const memory = new ReadMemory<string>(driver);
    let calls = 0;
    const readDuringCommit = async () => {
      calls += 1;
      await driver.run('INSERT INTO t (v) VALUES (?)', ['meanwhile']);
      return 'read before the commit';
    };
    await memory.find('k', readDuringCommit);
    await memory.find('k', readDuringCommit);
    assert.equal(calls, 2);
  });

  it('asks `fresh` at each hit and reads again when it says no', async () => {
    const memory = new ReadMemory<string>(driver);
    const read = countingRead();
    let fresh = true;
    await memory.find('k', read, () => fresh);
    await memory.find('k', read, () => fresh);
    assert.equal(read.calls, 1);
    fresh = false;
    await memory.find('k', read, () => fresh);
    assert.equal(read.calls, 2);
  });

  it('never keeps a null; keeps each key apart; drops everything past its size bound', async () => {
    const memory = new ReadMemory<string>(driver, { sizeOf: (value) => value.length, maxSize: 10 });
    const missing = countingRead(null);
    await memory.find('none', missing);
    await memory.find('none', missing);
    assert.equal(missing.calls, 2);
    const a = countingRead('aaaa');
    const b = countingRead('bbbb');
    assert.equal(await memory.find('a', a), 'aaaa');
    assert.equal(await memory.find('b', b), 'bbbb');
    assert.equal(await memory.find('a', a), 'aaaa');
    assert.equal(a.calls + b.calls, 2, 'both fit (8 of 10)');
    const c = countingRead('cccc');
    await memory.find('c', c);
    await memory.find('a', a);
    assert.equal(a.calls, 2, 'keeping c would pass 10: the others were dropped');
  });

  it('stays off without a stamp (PostgreSQL)', async () => {
    const noStamp = new Proxy(driver, { get: (target, name) => (name === 'foreignCommitStamp' ? () => null : Reflect.get(target, name, target)) }) as SqlDriver;
    const memory = new ReadMemory<string>(noStamp);
    const read = countingRead();
    await memory.find('k', read);
    await memory.find('k', read);
    assert.equal(read.calls, 2);
  });
});
