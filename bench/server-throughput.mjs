// Link-session create and read throughput and p99 latency on loopback (autocannon), each beside a bare
// node:http baseline measured in the same run. The service runs as its own process on a fresh SQLite file,
// exactly as `npm run start:service` runs it. Prints a table; exits non-zero only if a run failed.
import autocannon from 'autocannon';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChildService } from '../server/test/support/child-service.ts';
import { stopChild } from '../server/test/support/stop-child.ts';

const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const API_KEY = 'sk_bench_' + 'x'.repeat(40);

/** Both processes start through the shared test harness (server/test/support/), which runs them with tsx. */
const startProcess = (script, env, port) => startChildService({ ...env, PORT: String(port) }, { script });

function run(opts) {
  return new Promise((resolve, reject) => {
    autocannon({ duration: DURATION, connections: CONNECTIONS, ...opts }, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

const row = (name, r) => ({
  name,
  'req/s': Math.round(r.requests.average),
  'p50 ms': r.latency.p50,
  'p99 ms': r.latency.p99,
  non2xx: r.non2xx,
  errors: r.errors + r.timeouts,
});

/** Measures the bare baseline, session create and session read; returns one row each. */
export async function measureThroughput() {
const dir = mkdtempSync(join(tmpdir(), 'slk-bench-'));
const servicePort = 18787;
const barePort = 18790;
// Generous limits so the benchmark measures the service, not its abuse limits.
const limitsOff = { RATE_LIMIT_SESSION_CREATE_PER_MINUTE: '100000000', RATE_LIMIT_TOKEN_LOOKUPS_PER_MINUTE: '100000000' };
const service = await startProcess('server/src/main.ts', { DATA_DIR: dir, API_KEY, ...limitsOff }, servicePort);
const bare = await startProcess('bench/bare-server.mjs', {}, barePort);
const rows = [];
try {
  const base = `http://127.0.0.1:${servicePort}/api`;
  const headers = { Authorization: `Bearer ${API_KEY}`, 'Content-Type': 'application/json' };
  const created = await (await fetch(`${base}/profiles/link-sessions`, { method: 'POST', headers, body: '{}' })).json();
  if (!created.sessionId) throw new Error(`could not create a session: ${JSON.stringify(created)}`);

  rows.push(row('bare node:http (baseline)', await run({ url: `http://127.0.0.1:${barePort}/`, method: 'POST', body: '{}' })));
  rows.push(row('POST /profiles/link-sessions', await run({ url: `${base}/profiles/link-sessions`, method: 'POST', headers, body: '{}' })));
  rows.push(row(`GET /profiles/link-sessions/{id}`, await run({ url: `${base}/profiles/link-sessions/${created.sessionId}`, headers })));
} finally {
  await stopChild(service.process);
  await stopChild(bare.process);
  rmSync(dir, { recursive: true, force: true });
}
return rows;
}

export const THROUGHPUT_SETUP = `${CONNECTIONS} connections, ${DURATION} s each, ${process.env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : 'SQLite (WAL, synchronous=FULL)'}`;

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await measureThroughput();
  console.log(`\nServer throughput on loopback: ${THROUGHPUT_SETUP}`);
  console.table(rows);
  if (rows.some((r) => r.errors > 0 || r.non2xx > 0)) {
    console.error('Some requests failed; the numbers above are not valid.');
    process.exitCode = 1;
  }
}
