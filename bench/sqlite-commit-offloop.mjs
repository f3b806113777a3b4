// Where a durable SQLite commit's time goes, and what grouping the fsync off the event loop would gain (issue 31,
// item 4; a measurement and a prototype beside the driver, not the driver). BENCH_COMMITS transactions (default
// 2,000), BENCH_CONCURRENCY of them in flight (default 64, as the worker's in-flight publishes commit), each
// `BEGIN IMMEDIATE; INSERT; COMMIT`, while a reader issues one indexed SELECT every millisecond:
//   - FULL: what the driver does today for every write but a link-session create: the COMMIT fsyncs the WAL on
//     the event loop, so the loop (and every read) waits for the disk once per transaction;
//   - NORMAL + grouped fdatasync: COMMIT writes the WAL without a sync (in the page cache: it survives a crash of
//     the process), then each caller awaits a fdatasync of the WAL on libuv's thread pool before it is answered;
//     transactions that commit while a sync is running share the next one.
// Reported per mode (min / median of BENCH_ROUNDS, default 3, alternating): commits/s, event-loop time per commit,
// fsyncs per commit, and the reader's p99 / max wait. Load average beside each round.
import Database from 'better-sqlite3';
import { open } from 'node:fs/promises';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const COMMITS = Number(process.env.BENCH_COMMITS ?? 2_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 64);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

/** One fdatasync of the WAL at a time; callers that arrive while one runs share the next (it starts after them). */
function groupedSync(handle) {
  let running = null;
  let queued = null;
  let syncs = 0;
  const start = () => {
    syncs++;
    const done = handle.datasync().finally(() => {
      if (running === done) running = null;
    });
    running = done;
    return done;
  };
  return {
    sync() {
      if (!running) return start();
      queued ??= running.then(() => {
        queued = null;
        return start();
      });
      return queued;
    },
    get syncs() {
      return syncs;
    },
  };
}

async function run(mode) {
  const dir = mkdtempSync(join(tmpdir(), 'slk-commit-'));
  const db = new Database(join(dir, 'bench.db'));
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${mode === 'FULL' ? 'FULL' : 'NORMAL'}`);
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO t (body) VALUES (?)');
  const read = db.prepare('SELECT body FROM t WHERE id = ?');
  const wal = mode === 'FULL' ? null : await open(join(dir, 'bench.db-wal'), 'r');
  const grouped = wal ? groupedSync(wal) : null;
  const load = loadavg()[0].toFixed(1);

  // The reader: one read each millisecond, its wait = how late it ran behind its due time.
  const waits = [];
  let reading = true;
  const reader = (async () => {
    let due = performance.now();
    while (reading) {
      due += 1;
      const delay = due - performance.now();
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
      waits.push(performance.now() - due);
      read.get(1);
    }
  })();

  let loopMs = 0;
  let next = 0;
  const started = performance.now();
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < COMMITS) {
        next++;
        const t = performance.now();
        db.exec('BEGIN IMMEDIATE');
        insert.run('x'.repeat(200));
        db.exec('COMMIT');
        loopMs += performance.now() - t;
        if (grouped) await grouped.sync();
        else await new Promise((resolve) => setImmediate(resolve));
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  delay.disable();
  reading = false;
  await reader;
  await wal?.close();
  db.close();
  rmSync(dir, { recursive: true, force: true });
  waits.sort((a, b) => a - b);
  return {
    mode,
    load,
    commitsPerS: COMMITS / seconds,
    loopMsPerCommit: loopMs / COMMITS,
    syncsPerCommit: grouped ? grouped.syncs / COMMITS : 1,
    readP99: waits[Math.floor(waits.length * 0.99)],
    readMax: waits.at(-1),
  };
}

const results = { FULL: [], grouped: [] };
for (let round = 0; round < ROUNDS; round++) {
  for (const mode of round % 2 ? ['grouped', 'FULL'] : ['FULL', 'grouped']) results[mode].push(await run(mode));
}
const minMedian = (values, digits) => {
  const sorted = [...values].sort((a, b) => a - b);
  return `${sorted[0].toFixed(digits)} / ${sorted[Math.floor((sorted.length - 1) / 2)].toFixed(digits)}`;
};
const rows = Object.entries(results).map(([mode, list]) => ({
  mode: mode === 'FULL' ? 'FULL (today)' : 'NORMAL + grouped fdatasync off the loop',
  'commits/s (min / median)': minMedian(list.map((r) => r.commitsPerS), 0),
  'loop ms per commit': minMedian(list.map((r) => r.loopMsPerCommit), 3),
  'fsyncs per commit': minMedian(list.map((r) => r.syncsPerCommit), 3),
  'read wait p99 ms': minMedian(list.map((r) => r.readP99), 1),
  'read wait max ms': minMedian(list.map((r) => r.readMax), 1),
  load: list.map((r) => r.load).join(', '),
}));
console.log(`\nSQLite durable commits: ${COMMITS} transactions, ${CONCURRENCY} in flight, ${ROUNDS} rounds`);
console.table(rows);
const ratio = (key) => minMedian(results.grouped.map((r, i) => r[key] / results.FULL[i][key]), 2);
console.log(`grouped ÷ FULL, same round: commits/s ${ratio('commitsPerS')}; loop time per commit ${ratio('loopMsPerCommit')}`);
