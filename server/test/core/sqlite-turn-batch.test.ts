/**
 * The transactions of one event-loop turn share one SQLite commit (core/db/write-batch.ts, issue 31), on a real
 * file: concurrent transactions and single writes make one COMMIT (before, one each); a work that throws is rolled
 * back to its savepoint and fails alone; a work that ends the shared transaction fails every work of it, none
 * answered as kept; a read asked while a batch is open never sees its rows before the COMMIT, nor a rolled-back
 * work's; a burst is committed in bounded parts with queued reads answered between them; every caller is answered
 * only once its rows are in the power-loss image of its answer; a transaction inside a work, migrations and exec
 * keep their meaning.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { SqlConnection } from '../../src/core/db/sql-driver.js';
import { SqliteDriver } from '../../src/core/db/sqlite-driver.js';
import { MAX_BATCH_WRITES } from '../../src/core/db/write-batch.js';
import { commitsDuring, committedRows, readImage, withPowerLossImages } from '../support/sqlite-observe.js';

const INSERT = 'INSERT INTO items (name) VALUES (?)';

describe('SQLite: the transactions of one turn in one commit', () => {
  let dir: string;
  let file: string;
  let driver: SqliteDriver;
  /** As another process would read the file: only committed rows. */
  const committedNames = (): string[] => committedRows(file, 'SELECT name FROM items ORDER BY name').map((row) => row.name as string);

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'slk-turn-batch-'));
    file = join(dir, 'batch.db');
    driver = new SqliteDriver(file);
    // The tests count commits: a batch bounded by writes only, so a slow moment of a loaded machine cannot split one.
    driver.batchLimits = { writes: MAX_BATCH_WRITES, ms: 60_000 };
    await driver.exec('CREATE TABLE items (name TEXT PRIMARY KEY)');
  });
  beforeEach(() => driver.exec('DELETE FROM items'));
  after(async () => {
    await driver.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('commits 20 concurrent transactions and 5 single writes once, answering each after the commit', async () => {
    const names: string[] = [];
    const commits = await commitsDuring(driver, () =>
      Promise.all([
        ...Array.from({ length: 20 }, (_, i) => {
          const name = `t${String(i).padStart(2, '0')}`;
          names.push(name, `${name}b`);
          return driver
            .transaction(async (tx) => {
              await tx.run(INSERT, [name]);
              await tx.run(INSERT, [`${name}b`]);
              return name;
            })
            .then((result) => {
              assert.equal(result, name);
              assert.ok(committedNames().includes(`${name}b`), `${name} answered before its commit`);
            });
        }),
        ...Array.from({ length: 5 }, (_, i) => {
          names.push(`w${i}`);
          return driver.run(INSERT, [`w${i}`]);
        }),
      ]),
    );
    assert.equal(commits.length, 1, `${commits.length} commits`);
    assert.equal(commits[0]!.transactions, 20);
    assert.equal(commits[0]!.writes.length, 5);
    assert.deepEqual(committedNames(), names.sort());
  });

  it('rolls back a work that throws to its savepoint: only its caller sees the error, the others are kept', async () => {
    const outcomes = await Promise.allSettled([
      driver.transaction((tx) => tx.run(INSERT, ['a1'])),
      driver.transaction(async (tx) => {
        await tx.run(INSERT, ['bad1']);
        throw new Error('refused by the work');
      }),
      // A statement that fails inside a work, caught there: SQLite undoes that statement alone.
      driver.transaction(async (tx) => {
        await tx.run(INSERT, ['a2']);
        await assert.rejects(tx.run(INSERT, ['a1']), /UNIQUE/);
        await tx.run(INSERT, ['a3']);
      }),
      driver.transaction(async (tx) => {
        await tx.run(INSERT, ['bad2']);
        await tx.run(INSERT, ['a1']); // the UNIQUE error ends this work
      }),
      driver.run(INSERT, ['a4']),
    ]);
    assert.deepEqual(outcomes.map((outcome) => outcome.status), ['fulfilled', 'rejected', 'fulfilled', 'rejected', 'fulfilled']);
    assert.match(String((outcomes[1] as PromiseRejectedResult).reason), /refused by the work/);
    assert.match(String((outcomes[3] as PromiseRejectedResult).reason), /UNIQUE/);
    assert.deepEqual(committedNames(), ['a1', 'a2', 'a3', 'a4']);
  });

  it('fails every work of a batch that one of them ended, and keeps none of them', async () => {
    const outcomes = await Promise.allSettled([
      driver.transaction((tx) => tx.run(INSERT, ['e1'])),
      driver.transaction(async (tx) => {
        await tx.run(INSERT, ['e2']);
        await tx.exec('ROLLBACK');
      }),
      driver.transaction((tx) => tx.run(INSERT, ['e3'])),
    ]);
    // The first was undone with the batch: it must not be answered as kept.
    assert.equal(outcomes[0]!.status, 'rejected');
    assert.equal(outcomes[1]!.status, 'rejected');
    assert.deepEqual(committedNames().filter((name) => name !== 'e3'), []);
    // The driver goes on: the next batch commits.
    await driver.transaction((tx) => tx.run(INSERT, ['e4']));
    assert.ok(committedNames().includes('e4'));
  });

  it("never shows a read another work's rows before the commit, nor a rolled-back work's rows", async () => {
    let read: Promise<string[]> | undefined;
    let readAnswered: string[] | null = null;
    const works = Promise.allSettled([
      driver.transaction((tx) => tx.run(INSERT, ['r1'])),
      driver.transaction(async (tx) => {
        await tx.run(INSERT, ['r2']);
        // The event loop turns while the batch is open (a work that waits for I/O): a read asked now must wait.
        await new Promise((resolve) => setTimeout(resolve, 30));
      }),
      driver.transaction(async (tx) => {
        await tx.run(INSERT, ['r3']);
        throw new Error('undone');
      }),
    ]);
    // Asked from a timer that fires inside the second work's wait, outside any work, as another request would.
    setTimeout(() => {
      read = driver.all('SELECT name FROM items ORDER BY name').then((rows) => {
        const names = rows.map((row) => row.name as string);
        // Whatever the read saw was committed when it was answered.
        assert.deepEqual(committedNames(), names);
        readAnswered = names;
        return names;
      });
    }, 10);
    await works;
    await new Promise((resolve) => setTimeout(resolve, 40));
    assert.ok(read, 'the read was asked');
    assert.deepEqual(await read, ['r1', 'r2']);
    assert.deepEqual(readAnswered, ['r1', 'r2']);
  });

  it('commits a burst in bounded batches, answering a read queued behind the first before the rest', async () => {
    const count = MAX_BATCH_WRITES * 3;
    let readRows: number | null = null;
    let answered = 0;
    let answeredBeforeRead: number | null = null;
    const commits = await commitsDuring(driver, () =>
      Promise.all(
        Array.from({ length: count }, (_, i) =>
          driver
            .transaction(async (tx) => {
              await tx.run(INSERT, [`burst${String(i).padStart(3, '0')}`]);
              if (i === 0) {
                void driver.get('SELECT COUNT(*) AS n FROM items').then((row) => {
                  readRows = row!.n as number;
                  answeredBeforeRead = answered;
                });
              }
            })
            .then(() => (answered += 1)),
        ),
      ),
    );
    assert.ok(commits.length >= 3, `${commits.length} commits for ${count} transactions`);
    assert.ok(commits.every((commit) => commit.transactions <= MAX_BATCH_WRITES));
    assert.equal(commits.reduce((sum, commit) => sum + commit.transactions, 0), count);
    // The read ran between the first batch's COMMIT and the second batch: it saw the first batch's rows only.
    assert.equal(readRows, commits[0]!.transactions);
    assert.ok(answeredBeforeRead! < count, 'the read was answered before the burst ended');
  });

  it('answers each caller only once its rows are in the power-loss image of its answer', async () => {
    const answered: Array<{ name: string; image: string | null }> = [];
    const syncs = await withPowerLossImages(driver, file, dir, async (durableNow, images) => {
      const writes: Promise<unknown>[] = [];
      for (let round = 0; round < 8; round++) {
        for (let i = 0; i < 12; i++) {
          const name = `p${round}-${i}`;
          writes.push(
            driver
              .transaction(async (tx) => {
                await tx.run(INSERT, [name]);
                await tx.run(INSERT, [`${name}x`]);
              })
              .then(() => answered.push({ name, image: durableNow() })),
          );
        }
        // A process-crash transaction in the same batch is answered at the commit, without a sync.
        writes.push(driver.transaction((tx) => tx.run(INSERT, [`c${round}`]), 'process-crash'));
        await new Promise((resolve) => setImmediate(resolve));
      }
      await Promise.all(writes);
      return images.length;
    });
    assert.equal(answered.length, 96);
    const lost: string[] = [];
    for (const { name, image } of answered) {
      assert.ok(image, `${name} answered before any sync had ended`);
      const stored = new Set(readImage(image, (db) => (db.prepare('SELECT name FROM items').all() as { name: string }[]).map((row) => row.name)));
      if (!stored.has(name) || !stored.has(`${name}x`)) lost.push(name);
    }
    assert.deepEqual(lost, [], `${lost.length} answered transactions missing from the image of their answer`);
    assert.ok(syncs <= 16, `${syncs} syncs for 8 batches`);
  });

  it('keeps a transaction inside a work all-or-nothing within it, and migrations and exec as before', async () => {
    await driver.transaction(async (tx) => {
      await tx.run(INSERT, ['n1']);
      const inner = (tx as unknown as SqlConnection).transaction(async (inside) => {
        await inside.run(INSERT, ['n2']);
        throw new Error('inner refused');
      });
      await assert.rejects(inner, /inner refused/);
      await (tx as unknown as SqlConnection).transaction((inside) => inside.run(INSERT, ['n3']));
    });
    assert.deepEqual(committedNames(), ['n1', 'n3']);
    // whileMigrating's connection runs its own transactions (BEGIN … COMMIT), outside any batch.
    await driver.whileMigrating(async (connection) => {
      await connection.transaction((tx) => tx.run(INSERT, ['m1']));
      await assert.rejects(
        connection.transaction(async (tx) => {
          await tx.run(INSERT, ['m2']);
          throw new Error('migration refused');
        }),
        /migration refused/,
      );
    });
    await driver.exec("INSERT INTO items (name) VALUES ('x1')");
    assert.deepEqual(committedNames(), ['m1', 'n1', 'n3', 'x1']);
  });
});
