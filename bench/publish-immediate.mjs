// POST /api/post, immediate, to 3 sandbox platforms (facebook, linkedin, pinterest): req/s and p99 beside the bare
// node:http baseline of the same run. Each request has its own text (the duplicate rule would refuse repeats).
// The service runs as its own process on a fresh SQLite file with the sandbox networks (the embedded default).
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const API_KEY = 'sk_bench_' + 'p'.repeat(40);

function startProcess(args, env, port) {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (/listening|service on/i.test(out)) resolve(child);
    });
    child.on('exit', (code) => reject(new Error(`process exited early (${code}): ${out}`)));
  });
}

const run = (opts) =>
  new Promise((resolve, reject) => autocannon({ duration: DURATION, connections: CONNECTIONS, ...opts }, (error, result) => (error ? reject(error) : resolve(result))));

const row = (name, r) => ({ name, 'req/s': Math.round(r.requests.average), 'p50 ms': r.latency.p50, 'p99 ms': r.latency.p99, non2xx: r.non2xx, errors: r.errors + r.timeouts });

const dir = mkdtempSync(join(tmpdir(), 'slk-bench-publish-'));
const servicePort = 18797;
const barePort = 18798;
const service = await startProcess(['--import', 'tsx', 'server/src/main.ts'], { DATA_DIR: dir, API_KEY, SANDBOX_NETWORKS: 'all' }, servicePort);
const bare = await startProcess(['bench/bare-server.mjs'], {}, barePort);
const rows = [];
try {
  const base = `http://127.0.0.1:${servicePort}/api`;
  const headers = { Authorization: `Bearer ${API_KEY}`, 'Content-Type': 'application/json' };
  const platforms = ['facebook', 'linkedin', 'pinterest'];
  for (const platform of platforms) {
    const linked = await fetch(`${base}/sandbox/accounts`, { method: 'POST', headers, body: JSON.stringify({ platform }) });
    if (!linked.ok) throw new Error(`could not link ${platform}: ${await linked.text()}`);
  }
  rows.push(row('bare node:http (baseline)', await run({ url: `http://127.0.0.1:${barePort}/`, method: 'POST', body: '{}' })));
  const post = () => JSON.stringify({ post: `Bench ${randomBytes(12).toString('hex')} ${randomBytes(12).toString('base64url')}`, platforms });
  const result = await run({ url: `${base}/post`, method: 'POST', headers, requests: [{ setupRequest: (request) => ({ ...request, body: post() }) }] });
  rows.push(row('POST /api/post (3 sandbox platforms)', result));
} finally {
  service.kill('SIGTERM');
  bare.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
console.log(`\nImmediate publishing on loopback: ${CONNECTIONS} connections, ${DURATION} s, SQLite, sandbox networks on the service itself`);
console.table(rows);
if (rows.some((r) => r.errors > 0 || r.non2xx > 0)) {
  console.error('Some requests failed (quota or errors); the numbers above are not valid.');
  process.exitCode = 1;
}
