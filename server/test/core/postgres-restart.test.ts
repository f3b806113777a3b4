/**
 * A PostgreSQL restart (or any server-side end of a connection: failover, pg_terminate_backend) while a connection is
 * checked out of the pool for a transaction: the transaction fails with an error its caller handles (a job retries
 * or reconciles), the process does not die of an uncaught 'error' event, and the next transaction runs on a new
 * connection. On the code before, only idle connections had a handler: the checked-out one's 'error' was uncaught.
 * PostgreSQL only (TEST_DATABASE_URL); the backend is ended from a second connection with pg_terminate_backend.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { PostgresDriver } from '../../src/core/db/postgres-driver.js';
import { freshDatabase, type FreshDatabase } from '../support/fresh-database.js';

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
let database: FreshDatabase;
let driver: PostgresDriver;
before(async () => {
  if (!onPostgres) return;
  database = await freshDatabase('slk_restart');
  driver = new PostgresDriver(database.url);
  await driver.exec('CREATE TABLE counters (id TEXT PRIMARY KEY, n BIGINT NOT NULL)');
  await driver.run("INSERT INTO counters (id, n) VALUES ('a', 0)");
});
after(async () => {
  await driver?.close();
  await database?.drop();
});

test('a connection ended by the server inside a transaction fails that transaction only; nothing is uncaught', { skip: !onPostgres && 'PostgreSQL only' }, async () => {
  const uncaught: unknown[] = [];
  const onUncaught = (error: unknown) => uncaught.push(error);
  // node:test turns an uncaught error into a failure of whichever test runs; counted here to name the cause.
  process.on('uncaughtException', onUncaught);
  try {
    const failed = await driver
      .transaction(async (tx) => {
        await tx.run("UPDATE counters SET n = n + 1 WHERE id = 'a'");
        const pid = Number((await tx.get('SELECT pg_backend_pid() AS pid'))!.pid);
        // Another session ends this one while it is idle in its transaction, as a restart does. pg_terminate_backend
        // only signals it: wait until the backend is gone (not a fixed 200 ms, which a loaded machine can outlast, and
        // the next statement would then still run), up to a deadline only a hang reaches.
        await database.query(`SELECT pg_terminate_backend(${pid})`);
        const end = Date.now() + 10_000;
        while ((await database.query(`SELECT 1 FROM pg_stat_activity WHERE pid = ${pid}`)).length > 0 && Date.now() < end) await sleep(20);
        await tx.run("UPDATE counters SET n = n + 1 WHERE id = 'a'");
        return 'committed';
      })
      .catch((error: unknown) => error);
    assert.ok(failed instanceof Error, `the transaction failed (${String(failed)})`);
    await sleep(100);
    assert.deepEqual(uncaught, [], 'no uncaught error');
    assert.equal(Number((await driver.get("SELECT n FROM counters WHERE id = 'a'"))!.n), 0, 'the cut transaction left nothing');
    // The pool dropped the dead connection: the next transactions run.
    for (let i = 0; i < 12; i++) await driver.transaction((tx) => tx.run("UPDATE counters SET n = n + 1 WHERE id = 'a'"));
    assert.equal(Number((await driver.get("SELECT n FROM counters WHERE id = 'a'"))!.n), 12);
  } finally {
    process.off('uncaughtException', onUncaught);
  }
});
