// Scheduler: N posts (default 10,000) to one sandbox platform, all due at the same instant (or, with BENCH_RATE=<posts/s>,
// due one after another at that rate); reports the time until all are published and the p50/p99 lateness behind their
// scheduleDate. BENCH_INSTANCES=2 runs only the two-instance PostgreSQL setup (and one instance for the ratio). On SQLite with one service instance, and,
// with DATABASE_URL (a PostgreSQL server database to create scratch databases on), with one and with two instances.
// The posts and their jobs are written straight into the database (as the API writes them) so that the measured
// part is the scheduler alone: creating 10,000 posts through the API would take longer than publishing them.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChildService } from '../server/test/support/child-service.ts';
import { stopChild } from '../server/test/support/stop-child.ts';
import { postgres, sqlite } from './sql-surface.mjs';

const POSTS = Number(process.env.BENCH_POSTS ?? 10_000);
const LEAD_MS = 4_000;
/** Posts due per second; 0 = all due at the same instant. */
const RATE = Number(process.env.BENCH_RATE ?? 0);
const dueOffsetMs = (index) => (RATE > 0 ? Math.floor((index * 1000) / RATE) : 0);
const API_KEY = 'sk_bench_' + 's'.repeat(40);
const TOKEN_KEY = randomBytes(32).toString('base64');

/** The service through the shared harness (server/test/support/child-service.ts), which runs it with tsx. */
/** `BENCH_CPU_PROF=<dir>`: each service writes a V8 CPU profile there when it stops (node --cpu-prof). */
const profiling = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
async function startService(env, port) {
  const started = await startChildService(
    { ...env, PORT: String(port), API_KEY, TOKEN_ENCRYPTION_KEY: TOKEN_KEY, SANDBOX_NETWORKS: 'all', JOBS_POLL_MS: '100' },
    { nodeArgs: profiling },
  );
  return started.process;
}
const stop = (child) => stopChild(child);


async function seed(db, dueAt) {
  const [profile] = await db.all('SELECT id FROM profiles WHERE is_primary = 1');
  const now = Date.now();
  for (let start = 0; start < POSTS; start += 500) {
    const statements = [];
    for (let i = start; i < Math.min(POSTS, start + 500); i++) {
      const id = `post_bench${String(i).padStart(7, '0')}${randomBytes(4).toString('hex')}`;
      const text = `Bench ${randomBytes(10).toString('hex')}`;
      statements.push([
        `INSERT INTO posts (id, profile_id, status, request, platforms, schedule_date, created_at, updated_at) VALUES (?, ?, 'scheduled', ?, '["facebook"]', ?, ?, ?)`,
        [id, profile.id, JSON.stringify({ post: text, platforms: ['facebook'], scheduleDate: new Date(dueAt + dueOffsetMs(i)).toISOString() }), dueAt + dueOffsetMs(i), now, now],
      ]);
      statements.push([`INSERT INTO post_platforms (post_id, platform, status, text, duplicate_key, effective_at) VALUES (?, 'facebook', 'queued', ?, ?, ?)`, [id, text, text.toLowerCase(), dueAt + dueOffsetMs(i)]]);
      statements.push([`INSERT INTO jobs (id, kind, subject, payload, run_at, created_at) VALUES (?, 'publish', ?, '{"platform":"facebook"}', ?, ?)`, [`job_b${i}${randomBytes(4).toString('hex')}`, id, dueAt + dueOffsetMs(i), now]]);
    }
    await db.batch(statements);
  }
}

async function measure(label, db, instances) {
  const dueAt = Date.now() + LEAD_MS;
  await seed(db, dueAt);
  for (;;) {
    const [{ n }] = await db.all(`SELECT COUNT(*) AS n FROM posts WHERE status IN ('scheduled', 'processing')`);
    if (Number(n) === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const rows = await db.all(
    `SELECT pp.finished_at - p.schedule_date AS late, pp.finished_at - ? AS since_first_due, pp.status FROM post_platforms pp JOIN posts p ON p.id = pp.post_id WHERE p.schedule_date >= ?`,
    [dueAt, dueAt],
  );
  const late = rows.map((r) => Number(r.late)).sort((a, b) => a - b);
  const span = Math.max(...rows.map((r) => Number(r.since_first_due)));
  const at = (q) => late[Math.min(late.length - 1, Math.floor(q * late.length))];
  return {
    setup: label,
    instances,
    posts: rows.length,
    failed: rows.filter((r) => r.status !== 'success').length,
    'all published after s': (span / 1000).toFixed(1),
    'posts/s': Math.round(rows.length / (span / 1000)),
    'p50 late ms': at(0.5),
    'p99 late ms': at(0.99),
  };
}

async function linkFacebook(port) {
  const linked = await fetch(`http://127.0.0.1:${port}/api/sandbox/accounts`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${API_KEY}`, 'Content-Type': 'application/json' },
    body: '{"platform":"facebook"}',
  });
  if (!linked.ok) throw new Error(await linked.text());
}

const results = [];
if (process.env.BENCH_INSTANCES !== '2') {
  const dir = mkdtempSync(join(tmpdir(), 'slk-bench-sched-'));
  const service = await startService({ DATA_DIR: dir, DATABASE_URL: '' }, 18801);
  try {
    await linkFacebook(18801);
    const db = sqlite(join(dir, 'social-link.db'));
    results.push(await measure('SQLite', db, 1));
    await db.close();
  } finally {
    await stop(service);
    rmSync(dir, { recursive: true, force: true });
  }
}
if (process.env.DATABASE_URL) {
  for (const count of [1, 2]) {
    const name = `slk_bench_${randomBytes(4).toString('hex')}`;
    const admin = await postgres(process.env.DATABASE_URL);
    await admin.all(`CREATE DATABASE ${name}`);
    const url = new URL(process.env.DATABASE_URL);
    url.pathname = `/${name}`;
    const dirs = [];
    const services = [];
    try {
      for (let i = 0; i < count; i++) {
        dirs.push(mkdtempSync(join(tmpdir(), 'slk-bench-sched-')));
        services.push(await startService({ DATA_DIR: dirs[i], DATABASE_URL: url.href }, 18811 + i));
      }
      await linkFacebook(18811);
      const db = await postgres(url.href);
      results.push(await measure('PostgreSQL', db, count));
      await db.close();
    } finally {
      for (const service of services) await stop(service);
      await admin.all(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.close();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    }
  }
}
console.log(`\nScheduler: ${POSTS} posts ${RATE > 0 ? `due at ${RATE} per second` : 'due at the same instant'}, one sandbox platform (facebook), worker poll 100 ms`);
console.table(results);
const [one, two] = results.filter((r) => r.setup === 'PostgreSQL');
if (one && two) console.log(`two PostgreSQL instances vs one: ${(two['posts/s'] / one['posts/s']).toFixed(2)}× the posts/s`);
