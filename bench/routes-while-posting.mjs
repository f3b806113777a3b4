// Does one feature starve the others (issue 31: "other routes keep ≥ 80 % of their throughput while posts are
// created")? The link-session create and read, alone and while BENCH_POSTERS (2) connections create scheduled posts
// without pause, on a service holding BENCH_STORED (2,000) scheduled posts spread over 60 days (loaded through the
// API first). Each round measures alone, then beside the posters, so the ratio compares the same minute of this
// shared machine; BENCH_ROUNDS (3) rounds of BENCH_SECONDS (4 s), 10 connections for the link-session route.
// SERVICE_ROOT=<dir> also runs the service of another copy of the repository (e.g. `git archive main`, with a
// node_modules link) beside this one, each round on both services one after the other, so the pair shares its minutes.
// Each row also gives the service's CPU (user + system, from /proc) per request alone and per request beside the
// posters (both routes' requests and the posts counted), the steadiest figure on a shared machine, and the posts' share
// of the service's CPU meanwhile (what the route's requests did not take at their cost alone, in the same round).
// Last, the posts alone (nothing else arriving), each round on each service, as fast as they are created.
// Run: node --import tsx bench/routes-while-posting.mjs   (DATABASE_URL=… for PostgreSQL)
import autocannon from 'autocannon';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChildService } from '../server/test/support/child-service.ts';
import { stopChild } from '../server/test/support/stop-child.ts';
import { median } from './median.mjs';
import { enterpriseWithLinkedin } from './enterprise-linkedin.mjs';
import { cpuMs } from './process-stats.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const POSTERS = Number(process.env.BENCH_POSTERS ?? 2);
const STORED = Number(process.env.BENCH_STORED ?? 2_000);
const API_KEY = 'sk_bench_' + 'w'.repeat(40);
const ADMIN_TOKEN = 'bench-admin-token-' + 'w'.repeat(32);
const DAY = 86_400_000;

/** A post in the API's form, due at a random second of the next 60 days (no milliseconds). */
const scheduledPost = () =>
  JSON.stringify({
    post: `While posting ${randomBytes(12).toString('hex')}`,
    platforms: ['linkedin'],
    scheduleDate: new Date(Date.now() + DAY + Math.random() * 60 * DAY).toISOString().replace(/\.\d{3}Z$/, 'Z'),
  });

function cannon(options) {
  return new Promise((resolve, reject) => autocannon({ duration: SECONDS, ...options }, (error, result) => (error ? reject(error) : resolve(result))));
}

/** The service's estimate of one create's loop time (ms, admission.ts), from /metrics; null on code without it. */
async function createLoopMs(target) {
  const text = await (await fetch(`${target.service.url}/metrics`, { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } })).text();
  const found = /^slk_post_create_loop_seconds (\S+)$/m.exec(text);
  return found ? 1000 * Number(found[1]) : null;
}


/** A service with its posts loaded, added to `targets` as soon as it runs (so it is stopped whatever fails); `script` null for this tree's. */
async function loadedService(targets, name, script, port) {
  const dir = mkdtempSync(join(tmpdir(), 'slk-while-posting-'));
  const env = { DATA_DIR: dir, API_KEY, ADMIN_TOKEN, PORT: String(port), SANDBOX_NETWORKS: 'all', RATE_LIMIT_SESSION_CREATE_PER_MINUTE: '100000000', RATE_LIMIT_TOKEN_LOOKUPS_PER_MINUTE: '100000000' };
  const service = await startChildService(env, script ? { script } : {});
  service.process.stdout.removeAllListeners('data').resume();
  const target = { name, service, dir, pid: service.process.pid };
  targets.push(target);
  const api = `${service.url}/api`;
  const headers = { Authorization: `Bearer ${API_KEY}`, 'Content-Type': 'application/json' };
  await enterpriseWithLinkedin(service.url, API_KEY, ADMIN_TOKEN);
  for (let loaded = 0; loaded < STORED; loaded += 8) {
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        const answer = await fetch(`${api}/post`, { method: 'POST', headers, body: scheduledPost() });
        if (!answer.ok) throw new Error(`loading posts: ${answer.status} ${await answer.text()}`);
      }),
    );
  }
  const session = await (await fetch(`${api}/profiles/link-sessions`, { method: 'POST', headers, body: '{}' })).json();
  const routes = [
    { name: 'POST /api/profiles/link-sessions', url: `${api}/profiles/link-sessions`, method: 'POST', body: '{}' },
    { name: 'GET /api/profiles/link-sessions/{id}', url: `${api}/profiles/link-sessions/${session.sessionId}`, method: 'GET' },
  ];
  Object.assign(target, { api, headers, routes });
}

/** One round of one route on one service: alone, then beside the posters. */
async function round(target, route) {
  const { api, headers, pid } = target;
  const load = loadavg()[0].toFixed(1);
  let cpu = cpuMs(pid);
  const alone = await cannon({ ...route, headers, connections: 10 });
  const aloneCpu = cpuMs(pid) - cpu;
  cpu = cpuMs(pid);
  const [measured, posting] = await Promise.all([
    cannon({ ...route, headers, connections: 10 }),
    cannon({ url: `${api}/post`, method: 'POST', headers, connections: POSTERS, requests: [{ setupRequest: (request) => ({ ...request, body: scheduledPost() }) }] }),
  ]);
  const besideCpu = cpuMs(pid) - cpu;
  if (posting.non2xx > 0) throw new Error(`${posting.non2xx} posts refused while measuring`);
  return {
    load,
    alone: alone.requests.average,
    beside: measured.requests.average,
    posts: posting.requests.average,
    aloneUs: (1000 * aloneCpu) / alone.requests.total,
    besideUs: (1000 * besideCpu) / (measured.requests.total + posting.requests.total),
    postsShare: 1 - (measured.requests.total * aloneCpu) / alone.requests.total / besideCpu,
    createMs: await createLoopMs(target),
  };
}

export async function measureRoutesWhilePosting() {
  const targets = [];
  try {
    if (process.env.SERVICE_ROOT) await loadedService(targets, `before (${process.env.SERVICE_ROOT})`, join(process.env.SERVICE_ROOT, 'server/src/main.ts'), 18852);
    await loadedService(targets, process.env.SERVICE_ROOT ? 'this tree' : '', null, 18851);
    const rows = [];
    for (let r = 0; r < targets[0].routes.length; r++) {
      const results = targets.map(() => []);
      for (let n = 0; n < ROUNDS; n++) for (const [t, target] of targets.entries()) results[t].push(await round(target, target.routes[r]));
      for (const [t, target] of targets.entries()) {
        const runs = results[t];
        const ratios = runs.map((run) => run.beside / run.alone);
        const us = (key) => `${Math.round(Math.min(...runs.map((run) => run[key])))} / ${Math.round(median(runs.map((run) => run[key])))}`;
        rows.push({
          ...(target.name && { tree: target.name }),
          route: target.routes[r].name,
          'alone, req/s (median)': Math.round(median(runs.map((run) => run.alone))),
          'while posting, req/s (median)': Math.round(median(runs.map((run) => run.beside))),
          'kept, min / median (target ≥ 80 %)': `${(100 * Math.min(...ratios)).toFixed(1)} / ${(100 * median(ratios)).toFixed(1)} %`,
          'posts/s created meanwhile': Math.round(median(runs.map((run) => run.posts))),
          'service CPU µs per request alone, min / median': us('aloneUs'),
          'beside, per request of either kind': us('besideUs'),
          "posts' share of the service's CPU meanwhile, min / median": `${(100 * Math.min(...runs.map((run) => run.postsShare))).toFixed(0)} / ${(100 * median(runs.map((run) => run.postsShare))).toFixed(0)} %`,
          "gate's loop ms per create": runs.map((run) => (run.createMs === null ? '-' : run.createMs.toFixed(1))).join(', '),
          load: runs.map((run) => run.load).join(', '),
        });
      }
    }
    // Posts alone, nothing else arriving: the gate must leave them as fast as before.
    const alone = targets.map(() => []);
    for (let n = 0; n < ROUNDS; n++) {
      for (const [t, target] of targets.entries()) {
        const load = loadavg()[0].toFixed(1);
        const cpu = cpuMs(target.pid);
        const posting = await cannon({ url: `${target.api}/post`, method: 'POST', headers: target.headers, connections: POSTERS, requests: [{ setupRequest: (request) => ({ ...request, body: scheduledPost() }) }] });
        if (posting.non2xx > 0) throw new Error(`${posting.non2xx} posts refused while measuring`);
        alone[t].push({ load, posts: posting.requests.average, us: (1000 * (cpuMs(target.pid) - cpu)) / posting.requests.total });
      }
    }
    for (const [t, target] of targets.entries()) {
      const runs = alone[t];
      rows.push({
        ...(target.name && { tree: target.name }),
        route: 'POST /api/post alone',
        'alone, req/s (median)': Math.round(median(runs.map((run) => run.posts))),
        'kept, min / median (target ≥ 80 %)': `posts/s ${runs.map((run) => Math.round(run.posts)).join(', ')}`,
        'service CPU µs per request alone, min / median': `${Math.round(Math.min(...runs.map((run) => run.us)))} / ${Math.round(median(runs.map((run) => run.us)))}`,
        load: runs.map((run) => run.load).join(', '),
      });
    }
    return rows;
  } finally {
    for (const target of targets) {
      await stopChild(target.service.process);
      rmSync(target.dir, { recursive: true, force: true });
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await measureRoutesWhilePosting();
  console.log(`\nOther routes while ${POSTERS} connections create scheduled posts (${STORED} stored), ${ROUNDS} rounds of ${SECONDS} s`);
  console.table(rows);
}
