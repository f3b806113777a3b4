// What an immediate post costs above the network's own time (issue 31 target: ≤ 1.5 ms): `POST /api/post` to one
// sandbox linkedin account, one request at a time, BENCH_ROUNDS (3) rounds of BENCH_POSTS (60). The service runs
// with bench/server-marks.mjs preloaded, which marks when each request reached the process's HTTP server and when
// its answer was written; the sandbox network is served by the same process, so its API calls are marked too.
// Overhead of a post = its POST's time in the server − the time its sandbox calls took in the server (they run one
// after another). A bare node:http answer's round trip from this client is printed beside it as the floor.
// Run: node --import tsx bench/immediate-overhead.mjs (SQLITE_SYNCHRONOUS=normal shows the part the syncs take;
// BASELINE_ROOT=<dir> runs the code in <dir> beside it, round by round)
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startChildService } from '../server/test/support/child-service.ts';
import { stopChild } from '../server/test/support/stop-child.ts';
import { median } from './median.mjs';
import { cpuMs } from './process-stats.mjs';
import { enterpriseWithLinkedin } from './enterprise-linkedin.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const POSTS = Number(process.env.BENCH_POSTS ?? 60);
const API_KEY = 'sk_bench_' + 'i'.repeat(40);
const ADMIN_TOKEN = 'bench-admin-token-' + 'i'.repeat(32);

const fmt = (values) => `${Math.min(...values).toFixed(2)} / ${median(values).toFixed(2)} ms`;

/** A service from `root` (else this checkout) with the marks preloaded, set up with its sandbox linkedin account. */
async function startMarkedService(root) {
  const dir = mkdtempSync(join(tmpdir(), 'slk-immediate-'));
  const marksFile = join(dir, 'marks.jsonl');
  const service = await startChildService(
    { DATA_DIR: dir, API_KEY, ADMIN_TOKEN, PORT: String(await freePort()), SANDBOX_NETWORKS: 'all', SERVER_MARKS_FILE: marksFile, ...(process.env.SQLITE_SYNCHRONOUS && { SQLITE_SYNCHRONOUS: process.env.SQLITE_SYNCHRONOUS }) },
    { nodeArgs: ['--import', './bench/server-marks.mjs'], script: root && join(root, 'server/src/main.ts') },
  );
  service.process.stdout.removeAllListeners('data').resume();
  await enterpriseWithLinkedin(service.url, API_KEY, ADMIN_TOKEN);
  return { service, dir, marksFile, api: `${service.url}/api`, rounds: [] };
}

/** Each post's time in the server, the time its sandbox calls took in it, and the difference, from the marks. */
function overheadsFrom(marksFile, count) {
  const marks = readFileSync(marksFile, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
  const spans = new Map();
  for (const mark of marks) {
    if (mark.kind !== 'server-in' && mark.kind !== 'server-out') continue;
    const span = spans.get(mark.id) ?? { path: mark.path, method: mark.method };
    span[mark.kind === 'server-in' ? 'in' : 'out'] = mark.h / 1000;
    spans.set(mark.id, span);
  }
  const all = [...spans.values()].filter((span) => span.in !== undefined && span.out !== undefined).sort((a, b) => a.in - b.in);
  const posts = all.filter((span) => span.method === 'POST' && span.path === '/api/post');
  return posts.slice(-count).map((post) => {
    const calls = all.filter((span) => span !== post && span.path.startsWith('/sandbox/') && span.in >= post.in && span.out <= post.out);
    const network = calls.reduce((sum, call) => sum + (call.out - call.in), 0);
    return { total: post.out - post.in, network, overhead: post.out - post.in - network, calls: calls.length };
  });
}

/**
 * One row per round (and service): client and server times, the network's own time, what the service adds to it
 * (min / median) and the service process's CPU per post (user + system, /proc; the sandbox runs in it too).
 * BASELINE_ROOT=<dir> (a `git archive` copy with node_modules) runs that code's service beside this one, the two
 * taking turns round by round (which goes first alternates), so both see the same load.
 */
export async function measureImmediateOverhead() {
  const bare = await startChildService({ PORT: String(await freePort()) }, { script: 'bench/bare-server.mjs' });
  const services = [];
  try {
    services.push({ name: process.env.SERVICE_ROOT ? 'SERVICE_ROOT' : 'this checkout', ...(await startMarkedService(process.env.SERVICE_ROOT)) });
    if (process.env.BASELINE_ROOT) services.push({ name: 'baseline', ...(await startMarkedService(process.env.BASELINE_ROOT)) });
    const headers = { Authorization: `Bearer ${API_KEY}`, 'Content-Type': 'application/json' };
    for (let round = 0; round < ROUNDS; round++) {
      for (const svc of round % 2 === 0 ? services : [...services].reverse()) {
        const load = loadavg()[0].toFixed(1);
        const bareTimes = [];
        for (let i = 0; i < POSTS; i++) {
          const started = performance.now();
          await (await fetch(bare.url, { method: 'POST', body: '{}' })).arrayBuffer();
          bareTimes.push(performance.now() - started);
        }
        const clientTimes = [];
        const cpuBefore = cpuMs(svc.service.process.pid);
        for (let i = 0; i < POSTS; i++) {
          const started = performance.now();
          const response = await fetch(`${svc.api}/post`, { method: 'POST', headers, body: JSON.stringify({ post: `Overhead ${randomBytes(16).toString('hex')}`, platforms: ['linkedin'] }) });
          const answer = await response.json();
          if (answer.status !== 'success') throw new Error(`post: ${JSON.stringify(answer)}`);
          clientTimes.push(performance.now() - started);
        }
        const cpuPerPost = (cpuMs(svc.service.process.pid) - cpuBefore) / POSTS;
        svc.rounds.push({ load, bareTimes, clientTimes, cpuPerPost });
      }
    }
    // The marks are written once a second.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    return services.flatMap((svc) => {
      const measured = overheadsFrom(svc.marksFile, ROUNDS * POSTS);
      return svc.rounds.map((row, i) => {
        const part = measured.slice(i * POSTS, (i + 1) * POSTS);
        return {
          service: svc.name,
          round: i + 1,
          load: row.load,
          'bare round trip (client)': fmt(row.bareTimes),
          'POST round trip (client)': fmt(row.clientTimes),
          'POST in the server': fmt(part.map((p) => p.total)),
          "network's own time (sandbox calls in the server)": fmt(part.map((p) => p.network)),
          'above the network (target ≤ 1.5 ms)': fmt(part.map((p) => p.overhead)),
          'service CPU per post (ms)': row.cpuPerPost.toFixed(2),
          'calls per post': median(part.map((p) => p.calls)),
          overheadMedianMs: median(part.map((p) => p.overhead)),
        };
      });
    });
  } finally {
    for (const svc of services) {
      await stopChild(svc.service.process);
      rmSync(svc.dir, { recursive: true, force: true });
    }
    await stopChild(bare.process);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await measureImmediateOverhead();
  console.log(`\nImmediate POST /api/post (sandbox linkedin), one at a time: ${ROUNDS} rounds of ${POSTS}, min / median per round`);
  console.table(rows);
}
