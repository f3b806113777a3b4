// POST /api/post, immediate, to 3 sandbox platforms (facebook, linkedin, bluesky: text-only posts every one of them publishes): req/s and p99 beside the bare
// node:http baseline of the same run. Each request has its own text (the duplicate rule would refuse repeats).
// The service runs as its own process on a fresh SQLite file with the sandbox networks (the embedded default).
// Run: node --import tsx bench/publish-immediate.mjs (the harness is TypeScript). BENCH_CPU_PROF=<dir> profiles the service.
import autocannon from 'autocannon';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChildService } from '../server/test/support/child-service.ts';
import { stopChild } from '../server/test/support/stop-child.ts';

const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const API_KEY = 'sk_bench_' + 'p'.repeat(40);
/** `BENCH_CPU_PROF=<dir>`: the service writes a V8 CPU profile there when it stops (node --cpu-prof). */
const CPU_PROF_DIR = process.env.BENCH_CPU_PROF;

/** Both processes start through the shared harness (server/test/support/child-service.ts), which runs them with tsx. */
const startProcess = (script, env, port, nodeArgs = []) => startChildService({ ...env, PORT: String(port) }, { script, nodeArgs });

const run = (opts) =>
  new Promise((resolve, reject) => autocannon({ duration: DURATION, connections: CONNECTIONS, ...opts }, (error, result) => (error ? reject(error) : resolve(result))));

const row = (name, r) => ({ name, 'req/s': Math.round(r.requests.average), 'p50 ms': r.latency.p50, 'p99 ms': r.latency.p99, non2xx: r.non2xx, errors: r.errors + r.timeouts });

const dir = mkdtempSync(join(tmpdir(), 'slk-bench-publish-'));
const servicePort = 18797;
const barePort = 18798;
const profiling = CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF_DIR}`] : [];
const service = await startProcess('server/src/main.ts', { DATA_DIR: dir, API_KEY, SANDBOX_NETWORKS: 'all' }, servicePort, profiling);
const bare = await startProcess('bench/bare-server.mjs', {}, barePort);
const rows = [];
try {
  const base = `http://127.0.0.1:${servicePort}/api`;
  const headers = { Authorization: `Bearer ${API_KEY}`, 'Content-Type': 'application/json' };
  const platforms = ['facebook', 'linkedin', 'bluesky'];
  for (const platform of platforms) {
    const linked = await fetch(`${base}/sandbox/accounts`, { method: 'POST', headers, body: JSON.stringify({ platform }) });
    if (!linked.ok) throw new Error(`could not link ${platform}: ${await linked.text()}`);
  }
  rows.push(row('bare node:http (baseline)', await run({ url: `http://127.0.0.1:${barePort}/`, method: 'POST', body: '{}' })));
  const post = () => JSON.stringify({ post: `Bench ${randomBytes(12).toString('hex')} ${randomBytes(12).toString('base64url')}`, platforms });
  const result = await run({ url: `${base}/post`, method: 'POST', headers, requests: [{ setupRequest: (request) => ({ ...request, body: post() }) }] });
  rows.push(row('POST /api/post (3 sandbox platforms)', result));
} finally {
  await stopChild(service.process);
  await stopChild(bare.process);
  rmSync(dir, { recursive: true, force: true });
}
console.log(`\nImmediate publishing on loopback: ${CONNECTIONS} connections, ${DURATION} s, SQLite, sandbox networks on the service itself`);
console.table(rows);
const [bareRow, postRow] = rows;
if (bareRow && postRow) {
  console.log(`POST /api/post vs bare: ${(postRow['req/s'] / bareRow['req/s']).toFixed(4)}× the req/s, ${(postRow['p99 ms'] / Math.max(1, bareRow['p99 ms'])).toFixed(1)}× the p99`);
}
if (rows.some((r) => r.errors > 0 || r.non2xx > 0)) {
  console.error('Some requests failed (quota or errors); the numbers above are not valid.');
  process.exitCode = 1;
}
