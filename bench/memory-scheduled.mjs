// Memory as scheduled posts pile up (issue 31: RSS after 100k scheduled posts within 30 % of idle): the service as
// its own process (tsx, fresh SQLite), its resident set idle, then after BENCH_POSTS (default 100,000) scheduled
// posts made through `POST /api/post` (one sandbox linkedin account, the profile's quota raised, each due at a
// random second of the next 30 days so none is published during the run), and again BENCH_SETTLE_S (10) seconds
// later. Also prints the accept rate and the service's CPU per post.
// Run: node --import tsx bench/memory-scheduled.mjs
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startChildService } from '../server/test/support/child-service.ts';
import { stopChild } from '../server/test/support/stop-child.ts';
import { cpuMs, rssMb } from './process-stats.mjs';

const POSTS = Number(process.env.BENCH_POSTS ?? 100_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const SETTLE_S = Number(process.env.BENCH_SETTLE_S ?? 10);
const API_KEY = 'sk_bench_' + 'm'.repeat(40);
const ADMIN_TOKEN = 'bench-admin-token-' + 'm'.repeat(32);

const inApiForm = (ms) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

const dir = mkdtempSync(join(tmpdir(), 'slk-memory-'));
const service = await startChildService({ DATA_DIR: dir, API_KEY, ADMIN_TOKEN, PORT: '18811', SANDBOX_NETWORKS: 'all' });
service.process.stdout.removeAllListeners('data').resume();
const pid = service.process.pid;
try {
  const api = `${service.url}/api`;
  const headers = { Authorization: `Bearer ${API_KEY}`, 'Content-Type': 'application/json' };
  const admin = { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' };
  const { accounts } = await (await fetch(`${service.url}/admin/api/accounts`, { headers: admin })).json();
  const { profiles } = await (await fetch(`${service.url}/admin/api/accounts/${accounts[0].id}/linked-accounts`, { headers: admin })).json();
  const quota = await fetch(`${service.url}/admin/api/profiles/${profiles[0].id}/quota`, { method: 'PUT', headers: admin, body: JSON.stringify({ monthlyPostQuota: POSTS * 2 }) });
  if (!quota.ok) throw new Error(`quota: ${quota.status} ${await quota.text()}`);
  const linked = await fetch(`${api}/sandbox/accounts`, { method: 'POST', headers, body: JSON.stringify({ platform: 'linkedin' }) });
  if (!linked.ok) throw new Error(`link: ${linked.status}`);
  await sleep(5_000);
  const idle = rssMb(pid);
  const load = loadavg()[0].toFixed(1);

  let next = 0;
  let failed = 0;
  const cpuBefore = cpuMs(pid);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < POSTS) {
        next++;
        const due = Date.now() + 3_600_000 + Math.floor(Math.random() * 30 * 86_400_000);
        const body = JSON.stringify({ post: `Memory ${randomBytes(12).toString('hex')} ${randomBytes(12).toString('base64url')}`, platforms: ['linkedin'], scheduleDate: inApiForm(due) });
        const response = await fetch(`${api}/post`, { method: 'POST', headers, body });
        if (!response.ok) failed++;
        await response.arrayBuffer();
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpuPerPost = (cpuMs(pid) - cpuBefore) / POSTS;
  const after = rssMb(pid);
  await sleep(SETTLE_S * 1000);
  const settled = rssMb(pid);
  console.log(`\nMemory after ${POSTS} scheduled posts (${CONCURRENCY} at once; load ${load} → ${loadavg()[0].toFixed(1)})`);
  console.table([
    { measure: 'RSS idle, MB', value: idle.toFixed(0) },
    { measure: `RSS right after the posts, MB (× idle)`, value: `${after.toFixed(0)} (${(after / idle).toFixed(2)}×)` },
    { measure: `RSS ${SETTLE_S} s later, MB (× idle)`, value: `${settled.toFixed(0)} (${(settled / idle).toFixed(2)}×)` },
    { measure: 'accepted posts/s; service CPU per post', value: `${(POSTS / seconds).toFixed(0)}; ${cpuPerPost.toFixed(2)} ms` },
    { measure: 'failed requests', value: failed },
  ]);
  if (failed > 0) process.exitCode = 1;
} finally {
  await stopChild(service.process);
  rmSync(dir, { recursive: true, force: true });
}
