/**
 * Durable SQLite commits off the event loop, grouped across transactions (core/db/wal-sync.ts, sqlite-driver.ts),
 * on a real file:
 * - a read is answered while a commit's fdatasync is still running (before, the COMMIT's fsync ran on the event
 *   loop under the mutex the read queued on, so the read came after the commit's answer);
 * - an answered write survives a power loss, in a model of one: the disk holds what the WAL and the database file
 *   held when the last fdatasync that had ended before the answer began (copied at that moment, opened as a
 *   recovered database);
 * - concurrent transactions share a few syncs instead of one each;
 * - with SQLITE_SYNCHRONOUS=mixed a process-crash write is answered without a sync, under full it waits for one,
 *   under normal nothing waits; `durable()` syncs what was answered without one, once (issue 31).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SqliteDriver } from '../../src/core/db/sqlite-driver.js';
import { readImage, withPowerLossImages } from '../support/sqlite-observe.js';

describe('SQLite durable commits off the event loop', () => {
  let dir: string;
  let file: string;
  let driver: SqliteDriver;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'slk-durable-commit-'));
    file = join(dir, 'service.db');
    driver = new SqliteDriver(file);
    await driver.exec('CREATE TABLE items (name TEXT PRIMARY KEY)');
  });
  after(async () => {
    await driver.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("answers a read while a commit's sync is in flight, and the commit only after its sync", async () => {
    const order: string[] = [];
    let syncRunning = false;
    driver.observeSyncs((phase) => {
      syncRunning = phase === 'start';
    });
    try {
      let read: Promise<unknown> | undefined;
      const committed = driver
        .transaction(async (tx) => {
          await tx.run('INSERT INTO items (name) VALUES (?)', ['r1']);
          // Asked while the transaction holds the driver: it waits for the statements, not for the disk.
          read = driver.get('SELECT name FROM items WHERE name = ?', ['r1']).then((row) => order.push(`read ${row?.name} answered${syncRunning ? ' during a sync' : ''}`));
        })
        .then(() => order.push(`commit answered${syncRunning ? ' during a sync' : ''}`));
      await Promise.all([committed, read]);
    } finally {
      driver.observeSyncs(null);
    }
    assert.deepEqual(order, ['read r1 answered during a sync', 'commit answered']);
  });

  it('keeps every answered write in the power-loss image of its answer', async () => {
    // The event loop writes no frame while a sync's copy is made, and the checkpointer only copies frames that are in
    // that WAL copy into the database file: the copy holds at least what the sync makes durable.
    const answered: Array<{ name: string; image: string | null }> = [];
    const syncs = await withPowerLossImages(driver, file, dir, async (durableNow, images) => {
      const note = (name: string) => () => answered.push({ name, image: durableNow() });
      const writes: Promise<unknown>[] = [];
      for (let round = 0; round < 10; round++) {
        for (let i = 0; i < 10; i++) {
          writes.push(driver.run('INSERT INTO items (name) VALUES (?)', [`p${round}-w${i}`]).then(note(`p${round}-w${i}`)));
          writes.push(driver.transaction((tx) => tx.run('INSERT INTO items (name) VALUES (?)', [`p${round}-t${i}`])).then(note(`p${round}-t${i}`)));
        }
        await new Promise((resolve) => setImmediate(resolve));
      }
      await Promise.all(writes);
      return images.length;
    });
    assert.equal(answered.length, 200);
    const lost: string[] = [];
    const byImage = new Map<string | null, string[]>();
    for (const { name, image } of answered) byImage.set(image, [...(byImage.get(image) ?? []), name]);
    for (const [image, names] of byImage) {
      assert.ok(image, `${names.length} writes answered before any sync had ended`);
      const stored = new Set(readImage(image, (db) => (db.prepare('SELECT name FROM items').all() as { name: string }[]).map((row) => row.name)));
      lost.push(...names.filter((name) => !stored.has(name)));
    }
    assert.deepEqual(lost, [], `${lost.length} answered writes missing from the image of their answer`);
    assert.ok(syncs < 200, `${syncs} syncs for 200 writes`);
  });

  it('durable(): a process-crash transaction is answered without a sync; durable() syncs it once, and not again', async () => {
    const before = driver.walSyncs;
    await driver.transaction((tx) => tx.run('INSERT INTO items (name) VALUES (?)', ['d1']), 'process-crash');
    assert.equal(driver.walSyncs, before, 'answered without a sync');
    await driver.durable();
    assert.equal(driver.walSyncs, before + 1, 'durable() synced it');
    await driver.durable();
    assert.equal(driver.walSyncs, before + 1, 'nothing new to sync');
    // A synced commit after it covers it: durable() then has nothing to do.
    await driver.transaction((tx) => tx.run('INSERT INTO items (name) VALUES (?)', ['d2']), 'process-crash');
    await driver.transaction((tx) => tx.run('INSERT INTO items (name) VALUES (?)', ['d3']));
    const afterCovered = driver.walSyncs;
    await driver.durable();
    assert.equal(driver.walSyncs, afterCovered, 'the later synced commit covered the earlier one');
  });

  it('shares syncs between concurrent transactions', async () => {
    const before = driver.walSyncs;
    await Promise.all(Array.from({ length: 64 }, (_, i) => driver.transaction((tx) => tx.run('INSERT INTO items (name) VALUES (?)', [`g${i}`]))));
    const syncs = driver.walSyncs - before;
    assert.ok(syncs >= 1 && syncs <= 4, `${syncs} syncs for 64 transactions`);
  });
});

describe('SQLITE_SYNCHRONOUS decides which answers wait for a sync', () => {
  it('mixed: a process-crash write does not wait, any other does; full: all wait; normal: none', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'slk-durable-levels-'));
    try {
      for (const [setting, crashSyncs, powerSyncs] of [['mixed', 0, 1], ['full', 1, 1], ['normal', 0, 0]] as const) {
        const driver = new SqliteDriver(join(dir, `${setting}.db`), setting);
        try {
          await driver.exec('CREATE TABLE t (n INTEGER)');
          let syncs = driver.walSyncs;
          await driver.run('INSERT INTO t (n) VALUES (1)', [], 'process-crash');
          assert.equal(driver.walSyncs - syncs, crashSyncs, `${setting}: process-crash write`);
          syncs = driver.walSyncs;
          await driver.run('INSERT INTO t (n) VALUES (2)', [], 'power-loss');
          assert.equal(driver.walSyncs - syncs, powerSyncs, `${setting}: power-loss write`);
          // The connection itself never syncs at commit (NORMAL): the sync is the driver's, off the loop.
          assert.equal((await driver.get('PRAGMA synchronous'))!.synchronous, 1);
        } finally {
          await driver.close();
        }
        assert.equal(existsSync(join(dir, `${setting}.db-wal`)), false);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
