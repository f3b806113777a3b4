// What an immediate post costs above the network's own time (issue 31 target: ≤ 1.5 ms): `POST /api/post` to one
// sandbox linkedin account, one request at a time, BENCH_ROUNDS (3) rounds of BENCH_POSTS (60). The service runs
// with bench/server-marks.mjs preloaded, which marks when each request reached the process's HTTP server and when
// its answer was written; the sandbox network is served by the same process, so its API calls are marked too.
// Overhead of a post = its POST's time in the server − the time its sandbox calls took in the server (they run one
// after another). A bare node:http answer's round trip from this client is printed beside it as the floor.
// Run: node --import tsx bench/immediate-overhead.mjs (SQLITE_SYNCHRONOUS=normal shows the part the syncs take)
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChildService } from '../server/test/support/child-service.ts';
import { stopChild } from '../server/test/support/stop-child.ts';
import { median } from './median.mjs';
import { enterpriseWithLinkedin } from './enterprise-linkedin.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const POSTS = Number(process.env.BENCH_POSTS ?? 60);
const API_KEY = 'sk_bench_' + 'i'.repeat(40);
const ADMIN_TOKEN = 'bench-admin-token-' + 'i'.repeat(32);

const fmt = (values) => `${Math.min(...values).toFixed(2)} / ${median(values).toFixed(2)} ms`;

/** One row per round: client and server times, the network's own time and what the service adds to it (min / median). */
export async function measureImmediateOverhead() {
  const dir = mkdtempSync(join(tmpdir(), 'slk-immediate-'));
  const marksFile = join(dir, 'marks.jsonl');
  const service = await startChildService(
    { DATA_DIR: dir, API_KEY, ADMIN_TOKEN, PORT: '18821', SANDBOX_NETWORKS: 'all', SERVER_MARKS_FILE: marksFile, ...(process.env.SQLITE_SYNCHRONOUS && { SQLITE_SYNCHRONOUS: process.env.SQLITE_SYNCHRONOUS }) },
    // SERVICE_ROOT=<dir>: the service of another copy of the repository (e.g. `git archive <commit>`), for a before/after pair.
    { nodeArgs: ['--import', './bench/server-marks.mjs'], script: process.env.SERVICE_ROOT && join(process.env.SERVICE_ROOT, 'server/src/main.ts') },
  );
  service.process.stdout.removeAllListeners('data').resume();
  const bare = await startChildService({ PORT: '18822' }, { script: 'bench/bare-server.mjs' });
  try {
    const api = `${service.url}/api`;
    const headers = { Authorization: `Bearer ${API_KEY}`, 'Content-Type': 'application/json' };
    await enterpriseWithLinkedin(service.url, API_KEY, ADMIN_TOKEN);
    const rows = [];
    for (let round = 0; round < ROUNDS; round++) {
      const load = loadavg()[0].toFixed(1);
      const bareTimes = [];
      for (let i = 0; i < POSTS; i++) {
        const started = performance.now();
        await (await fetch(bare.url, { method: 'POST', body: '{}' })).arrayBuffer();
        bareTimes.push(performance.now() - started);
      }
      const clientTimes = [];
      for (let i = 0; i < POSTS; i++) {
        const started = performance.now();
        const response = await fetch(`${api}/post`, { method: 'POST', headers, body: JSON.stringify({ post: `Overhead ${randomBytes(16).toString('hex')}`, platforms: ['linkedin'] }) });
        const answer = await response.json();
        if (answer.status !== 'success') throw new Error(`post: ${JSON.stringify(answer)}`);
        clientTimes.push(performance.now() - started);
      }
      rows.push({ round, load, bareTimes, clientTimes });
    }
    // The marks are written once a second.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
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
    const measured = posts.slice(-ROUNDS * POSTS).map((post) => {
      const calls = all.filter((span) => span !== post && span.path.startsWith('/sandbox/') && span.in >= post.in && span.out <= post.out);
      const network = calls.reduce((sum, call) => sum + (call.out - call.in), 0);
      return { total: post.out - post.in, network, overhead: post.out - post.in - network, calls: calls.length };
    });
    return rows.map((row, i) => {
        const part = measured.slice(i * POSTS, (i + 1) * POSTS);
        return {
          round: i + 1,
          load: row.load,
          'bare round trip (client)': fmt(row.bareTimes),
          'POST round trip (client)': fmt(row.clientTimes),
          'POST in the server': fmt(part.map((p) => p.total)),
          "network's own time (sandbox calls in the server)": fmt(part.map((p) => p.network)),
          'above the network (target ≤ 1.5 ms)': fmt(part.map((p) => p.overhead)),
          'calls per post': median(part.map((p) => p.calls)),
          overheadMedianMs: median(part.map((p) => p.overhead)),
        };
      });
  } finally {
    await stopChild(service.process);
    await stopChild(bare.process);
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await measureImmediateOverhead();
  console.log(`\nImmediate POST /api/post (sandbox linkedin), one at a time: ${ROUNDS} rounds of ${POSTS}, min / median per round`);
  console.table(rows);
}
