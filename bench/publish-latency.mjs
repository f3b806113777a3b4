// Scheduled publishing against networks that take their time: the sandbox answers every network call after
// SANDBOX_LATENCY_MS (BENCH_LATENCY_MS, default 2,000 ms), as real networks do (0.2-2 s). Posts go to
// BENCH_NETWORKS (default linkedin,bluesky: one network call per post each), written straight into the database as
// the API writes them (publish-scheduler.mjs does the same), so the measured part is the scheduler alone.
// Three measures, each repeated BENCH_ROUNDS times (default 3), reported as min / median:
//   - rate: BENCH_RATE due posts/s (default 100) for BENCH_SECONDS (default 20), one instance on SQLite:
//     lateness of the network call's start behind the due time (p50, p99) and posts/s drained;
//   - burst: BENCH_BURST posts (default 2,000) due at once, one instance on SQLite: posts/s;
//   - with DATABASE_URL (a PostgreSQL server database to create scratch databases on): the same burst on one and on
//     two instances sharing one database, and their ratio (each pair measured back to back).
// The load average of the machine is printed beside every round: compare rounds of the same run only.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChildService } from '../server/test/support/child-service.ts';
import { stopChild } from '../server/test/support/stop-child.ts';
import { postgres, sqlite } from './sql-surface.mjs';
import { cpuMs } from './process-stats.mjs';

const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 2_000);
const RATE = Number(process.env.BENCH_RATE ?? 100);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const BURST = Number(process.env.BENCH_BURST ?? 2_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const NETWORKS = (process.env.BENCH_NETWORKS ?? 'linkedin,bluesky').split(',');
const LEAD_MS = 3_000;
const API_KEY = 'sk_bench_' + 's'.repeat(40);
const TOKEN_KEY = randomBytes(32).toString('base64');

/** CPU time (user + system) the processes used so far, ms (Linux /proc; clock ticks of 10 ms). */
function cpuMsOf(pids) {
  return pids.reduce((sum, pid) => sum + cpuMs(pid), 0);
}

async function startService(env, port) {
  const started = await startChildService({
    ...env,
    PORT: String(port),
    API_KEY,
    TOKEN_ENCRYPTION_KEY: TOKEN_KEY,
    SANDBOX_NETWORKS: 'all',
    SANDBOX_LATENCY_MS: String(LATENCY_MS),
    ...(process.env.BENCH_SERVICE_ENV ? JSON.parse(process.env.BENCH_SERVICE_ENV) : {}),
  });
  return started.process;
}


/** `count` posts, one network each (round robin), due from `dueAt` on at `rate`/s (0: all at once). */
async function seed(db, count, dueAt, rate) {
  const profiles = await db.all('SELECT DISTINCT profile_id AS id FROM social_accounts ORDER BY profile_id');
  const now = Date.now();
  for (let start = 0; start < count; start += 500) {
    const statements = [];
    for (let i = start; i < Math.min(count, start + 500); i++) {
      const platform = NETWORKS[i % NETWORKS.length];
      const profile = profiles[Math.floor(i / NETWORKS.length) % profiles.length];
      const due = dueAt + (rate > 0 ? Math.floor((i * 1000) / rate) : 0);
      const id = `post_bench${String(i).padStart(7, '0')}${randomBytes(4).toString('hex')}`;
      const text = `Bench ${randomBytes(10).toString('hex')}`;
      statements.push([
        `INSERT INTO posts (id, profile_id, status, request, platforms, schedule_date, created_at, updated_at) VALUES (?, ?, 'scheduled', ?, ?, ?, ?, ?)`,
        [id, profile.id, JSON.stringify({ post: text, platforms: [platform], scheduleDate: new Date(due).toISOString() }), JSON.stringify([platform]), due, now, now],
      ]);
      statements.push([
        `INSERT INTO post_platforms (post_id, platform, status, text, duplicate_key, effective_at, profile_id) VALUES (?, ?, 'queued', ?, ?, ?, ?)`,
        [id, platform, text, text.toLowerCase(), due, profile.id],
      ]);
      statements.push([
        `INSERT INTO jobs (id, kind, subject, payload, run_at, created_at) VALUES (?, 'publish', ?, ?, ?, ?)`,
        [`job_b${i}${randomBytes(4).toString('hex')}`, id, JSON.stringify({ platform }), due, now],
      ]);
    }
    await db.batch(statements);
  }
}

async function measure(db, count, rate, pids) {
  const dueAt = Date.now() + LEAD_MS;
  await seed(db, count, dueAt, rate);
  const cpuBefore = cpuMsOf(pids);
  const deadline = dueAt + (rate > 0 ? (count / rate) * 1000 : 0) + 600_000;
  for (;;) {
    const [{ n }] = await db.all(`SELECT COUNT(*) AS n FROM posts WHERE status IN ('scheduled', 'processing')`);
    if (Number(n) === 0) break;
    if (Date.now() > deadline) throw new Error(`${n} posts still not published after 10 minutes`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const cpu = cpuMsOf(pids) - cpuBefore;
  const rows = await db.all(
    `SELECT pp.commit_started_at - p.schedule_date AS late, pp.finished_at - ? AS since_first_due, pp.status, pp.error FROM post_platforms pp JOIN posts p ON p.id = pp.post_id WHERE p.schedule_date >= ?`,
    [dueAt, dueAt],
  );
  const late = rows.map((r) => Number(r.late)).sort((a, b) => a - b);
  const span = Math.max(...rows.map((r) => Number(r.since_first_due))) / 1000;
  const at = (q) => late[Math.min(late.length - 1, Math.floor(q * late.length))];
  const firstError = rows.find((r) => r.status !== 'success');
  if (firstError) console.error(`a failed attempt: ${firstError.status} ${String(firstError.error).slice(0, 300)}`);
  return { posts: rows.length, failed: rows.filter((r) => r.status !== 'success').length, postsPerS: rows.length / span, p50: at(0.5), p99: at(0.99), cpuMsPerPost: cpu / rows.length };
}

/**
 * Links every network on enough profiles that no account gets more than POSTS_PER_ACCOUNT of `count` posts: the
 * networks' own limits (bluesky creates 1,666 records an hour per account) would otherwise defer the rest by an hour,
 * as they should.
 */
const POSTS_PER_ACCOUNT = 1_000;
async function linkNetworks(port, count) {
  const api = `http://127.0.0.1:${port}/api`;
  const headers = { Authorization: `Bearer ${API_KEY}`, 'Content-Type': 'application/json' };
  const profiles = Math.ceil(count / NETWORKS.length / POSTS_PER_ACCOUNT);
  for (let p = 0; p < profiles; p++) {
    let profileHeaders = headers;
    if (p > 0) {
      const created = await (await fetch(`${api}/profiles`, { method: 'POST', headers, body: JSON.stringify({ title: `Bench ${p}` }) })).json();
      profileHeaders = { ...headers, 'Profile-Key': created.profileKey };
    }
    for (const platform of NETWORKS) {
      const linked = await fetch(`${api}/sandbox/accounts`, { method: 'POST', headers: profileHeaders, body: JSON.stringify({ platform }) });
      if (!linked.ok) throw new Error(await linked.text());
    }
  }
}

async function onSqlite(count, rate, env = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'slk-bench-latency-'));
  const service = await startService({ DATA_DIR: dir, DATABASE_URL: '', ...env }, 18831);
  try {
    await linkNetworks(18831, count);
    const db = sqlite(join(dir, 'social-link.db'));
    try {
      return await measure(db, count, rate, [service.pid]);
    } finally {
      await db.close();
    }
  } finally {
    await stopChild(service);
    rmSync(dir, { recursive: true, force: true });
  }
}

async function onPostgres(instances, count) {
  const name = `slk_bench_${randomBytes(4).toString('hex')}`;
  const admin = await postgres(process.env.DATABASE_URL);
  await admin.all(`CREATE DATABASE ${name}`);
  const url = new URL(process.env.DATABASE_URL);
  url.pathname = `/${name}`;
  const dirs = [];
  const services = [];
  try {
    for (let i = 0; i < instances; i++) {
      dirs.push(mkdtempSync(join(tmpdir(), 'slk-bench-latency-')));
      services.push(await startService({ DATA_DIR: dirs[i], DATABASE_URL: url.href }, 18841 + i));
    }
    await linkNetworks(18841, count);
    const db = await postgres(url.href);
    try {
      return await measure(db, count, 0, services.map((service) => service.pid));
    } finally {
      await db.close();
    }
  } finally {
    for (const service of services) await stopChild(service);
    await admin.all(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}

const load = () => loadavg()[0].toFixed(1);
const minMedian = (values, digits = 0) => {
  const sorted = [...values].sort((a, b) => a - b);
  return `${sorted[0].toFixed(digits)} / ${sorted[Math.floor((sorted.length - 1) / 2)].toFixed(digits)}`;
};
const maxMedian = (values, digits = 0) => {
  const sorted = [...values].sort((a, b) => b - a);
  return `${sorted[0].toFixed(digits)} / ${sorted[Math.floor((sorted.length - 1) / 2)].toFixed(digits)}`;
};

export async function measurePublishLatency() {
  const rows = [];
  const rounds = { rate: [], burst: [], old: [], one: [], two: [] };
  for (let round = 0; round < ROUNDS; round++) {
    const atRate = { load: load(), ...(await onSqlite(RATE * SECONDS, RATE)) };
    rounds.rate.push(atRate);
    const burst = { load: load(), ...(await onSqlite(BURST, 0)) };
    rounds.burst.push(burst);
    // The baseline of the same moment: as many in flight as one claim brings (the worker before issue 31).
    const old = { load: load(), ...(await onSqlite(BURST, 0, { JOBS_MAX_IN_FLIGHT: '32', JOBS_MAX_IN_FLIGHT_PER_NETWORK: '32' })) };
    rounds.old.push(old);
    console.error(`round ${round + 1}: rate ${JSON.stringify(atRate)} burst ${JSON.stringify(burst)} 32 in flight ${JSON.stringify(old)}`);
    if (process.env.DATABASE_URL) {
      const one = { load: load(), ...(await onPostgres(1, BURST)) };
      const two = { load: load(), ...(await onPostgres(2, BURST * 2)) };
      rounds.one.push(one);
      rounds.two.push(two);
      console.error(`round ${round + 1}: PostgreSQL one ${JSON.stringify(one)} two ${JSON.stringify(two)}`);
    }
  }
  const loads = (list) => list.map((r) => r.load).join(', ');
  const failed = (list) => list.reduce((sum, r) => sum + r.failed, 0);
  rows.push({
    measure: `${RATE} due/s for ${SECONDS} s, 1 instance, SQLite: call-start lateness p99 ms (min / median)`,
    value: minMedian(rounds.rate.map((r) => r.p99)),
    more: `p50 ${minMedian(rounds.rate.map((r) => r.p50))} ms; drained ${maxMedian(rounds.rate.map((r) => r.postsPerS))} posts/s`,
    target: 'p99 < 1,000 ms',
    failed: failed(rounds.rate),
    load: loads(rounds.rate),
  });
  rows.push({
    measure: `${BURST} due at once, 1 instance, SQLite: posts/s (max / median)`,
    value: maxMedian(rounds.burst.map((r) => r.postsPerS)),
    more: `${minMedian(rounds.burst.map((r, i) => r.postsPerS / rounds.old[i].postsPerS), 2)}× the same burst with 32 in flight (${maxMedian(rounds.old.map((r) => r.postsPerS))} posts/s); service CPU ${minMedian(rounds.burst.map((r) => r.cpuMsPerPost), 1)} ms per post`,
    target: '≥ 100 posts/s',
    failed: failed(rounds.burst) + failed(rounds.old),
    load: loads([...rounds.burst, ...rounds.old]),
  });
  if (rounds.one.length) {
    const ratios = rounds.two.map((two, i) => two.postsPerS / rounds.one[i].postsPerS);
    rows.push({
      measure: `PostgreSQL burst: 2 instances ÷ 1 (pairs back to back; min / median)`,
      value: minMedian(ratios, 2),
      more: `1: ${maxMedian(rounds.one.map((r) => r.postsPerS))}, 2: ${maxMedian(rounds.two.map((r) => r.postsPerS))} posts/s (max / median)`,
      target: '≥ 1.8×',
      failed: failed(rounds.one) + failed(rounds.two),
      load: loads([...rounds.one, ...rounds.two]),
    });
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await measurePublishLatency();
  console.log(`\nScheduled publishing, the sandbox answering each network call after ${LATENCY_MS} ms; networks ${NETWORKS.join(', ')}; ${ROUNDS} rounds`);
  console.table(rows);
}
