// Does one feature starve the others (issue 31: "other routes keep ≥ 80 % of their throughput while posts are
// created")? The link-session create and read, alone and while BENCH_POSTERS (2) connections create scheduled posts
// without pause, on a service holding BENCH_STORED (2,000) scheduled posts spread over 60 days (loaded through the
// API first). Each round measures alone, then beside the posters, so the ratio compares the same minute of this
// shared machine; BENCH_ROUNDS (3) rounds of BENCH_SECONDS (4 s), 10 connections for the link-session route.
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

export async function measureRoutesWhilePosting() {
  const dir = mkdtempSync(join(tmpdir(), 'slk-while-posting-'));
  const service = await startChildService({
    DATA_DIR: dir,
    API_KEY,
    ADMIN_TOKEN,
    PORT: '18851',
    SANDBOX_NETWORKS: 'all',
    RATE_LIMIT_SESSION_CREATE_PER_MINUTE: '100000000',
    RATE_LIMIT_TOKEN_LOOKUPS_PER_MINUTE: '100000000',
  });
  service.process.stdout.removeAllListeners('data').resume();
  try {
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
    const rows = [];
    for (const route of routes) {
      const alone = [];
      const beside = [];
      const posts = [];
      const loads = [];
      for (let round = 0; round < ROUNDS; round++) {
        loads.push(loadavg()[0].toFixed(1));
        alone.push((await cannon({ ...route, headers, connections: 10 })).requests.average);
        const [measured, posting] = await Promise.all([
          cannon({ ...route, headers, connections: 10 }),
          cannon({ url: `${api}/post`, method: 'POST', headers, connections: POSTERS, requests: [{ setupRequest: (request) => ({ ...request, body: scheduledPost() }) }] }),
        ]);
        if (posting.non2xx > 0) throw new Error(`${posting.non2xx} posts refused while measuring`);
        beside.push(measured.requests.average);
        posts.push(posting.requests.average);
      }
      const ratios = alone.map((rate, i) => beside[i] / rate);
      rows.push({
        route: route.name,
        'alone, req/s (median)': Math.round(median(alone)),
        'while posting, req/s (median)': Math.round(median(beside)),
        'kept, min / median (target ≥ 80 %)': `${(100 * Math.min(...ratios)).toFixed(1)} / ${(100 * median(ratios)).toFixed(1)} %`,
        'posts/s created meanwhile': Math.round(median(posts)),
        load: loads.join(', '),
      });
    }
    return rows;
  } finally {
    await stopChild(service.process);
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await measureRoutesWhilePosting();
  console.log(`\nOther routes while ${POSTERS} connections create scheduled posts (${STORED} stored), ${ROUNDS} rounds of ${SECONDS} s`);
  console.table(rows);
}
