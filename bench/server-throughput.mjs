// Service throughput and latency on loopback, each beside its baselines in the same run: a bare node:http server
// and a bare one-route Hono app answering the same JSON. Every round measures bare node:http between every two
// targets, so a target's ratio is to the mean of the baseline runs just before and just after it (the machine's
// load drifts). Rounds repeat (BENCH_ROUNDS, default 3); the table gives min and median. Then p99 at a steady
// 1,000 req/s (open loop, bench/open-loop.mjs) for the same targets. Exits non-zero only if requests failed.
import autocannon from 'autocannon';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChildService } from '../server/test/support/child-service.ts';
import { stopChild } from '../server/test/support/stop-child.ts';
import { openLoopLatency } from './open-loop.mjs';

const DURATION = Number(process.env.BENCH_SECONDS ?? 4);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const OPEN_LOOP_RATE = Number(process.env.BENCH_RATE ?? 1000);
const API_KEY = 'sk_bench_' + 'x'.repeat(40);

/** Every process starts through the shared test harness (server/test/support/), which runs it with tsx. */
const startProcess = (script, env, port) => startChildService({ ...env, PORT: String(port) }, { script });

function autocannonRun(target) {
  return new Promise((resolve, reject) => {
    autocannon(
      { duration: DURATION, connections: CONNECTIONS, url: target.url, method: target.method, headers: target.headers, body: target.body },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
const min = (values) => Math.min(...values);
const percent = (value) => `${(value * 100).toFixed(1)} %`;

/** Measures every target ROUNDS times beside the bare baselines; returns one summary row per target. */
export async function measureThroughput() {
  const dir = mkdtempSync(join(tmpdir(), 'slk-bench-'));
  const [servicePort, barePort, honoPort] = [18787, 18790, 18791];
  // Generous limits so the benchmark measures the service, not its abuse limits.
  const limitsOff = { RATE_LIMIT_SESSION_CREATE_PER_MINUTE: '100000000', RATE_LIMIT_TOKEN_LOOKUPS_PER_MINUTE: '100000000' };
  const children = [];
  try {
    const service = await startProcess('server/src/main.ts', { DATA_DIR: dir, API_KEY, ...limitsOff }, servicePort);
    children.push(service);
    children.push(await startProcess('bench/bare-server.mjs', {}, barePort));
    children.push(await startProcess('bench/bare-hono.mjs', {}, honoPort));
    // The service logs a line per request; drop it as it comes instead of keeping it for the whole run.
    for (const child of children) child.process.stdout.removeAllListeners('data').resume();

    const api = `http://127.0.0.1:${servicePort}/api`;
    const headers = { Authorization: `Bearer ${API_KEY}`, 'Content-Type': 'application/json' };
    const created = await (await fetch(`${api}/profiles/link-sessions`, { method: 'POST', headers, body: '{}' })).json();
    if (!created.sessionId) throw new Error(`could not create a session: ${JSON.stringify(created)}`);

    const bare = { name: 'bare node:http (baseline)', url: `http://127.0.0.1:${barePort}/`, method: 'POST', body: '{}' };
    const targets = [
      { name: 'bare Hono, one route', url: `http://127.0.0.1:${honoPort}/`, method: 'POST', body: '{}' },
      { name: 'POST /api/profiles/link-sessions', url: `${api}/profiles/link-sessions`, method: 'POST', headers, body: '{}' },
      { name: 'GET /api/profiles/link-sessions/{id}', url: `${api}/profiles/link-sessions/${created.sessionId}`, method: 'GET', headers },
    ];
    // Publishing's read, when this build has it (a 404 means the route is not mounted).
    if ((await fetch(`${api}/history`, { headers })).status === 200) {
      targets.push({ name: 'GET /api/history', url: `${api}/history`, method: 'GET', headers });
    }

    const samples = new Map(targets.map((t) => [t.name, { rps: [], ratio: [], hono: [], p99: [], failed: 0 }]));
    const bareSample = { rps: [], p99: [], failed: 0 };
    const measureBare = async () => {
      const result = await autocannonRun(bare);
      bareSample.rps.push(result.requests.average);
      bareSample.p99.push(result.latency.p99);
      bareSample.failed += result.non2xx + result.errors + result.timeouts;
      return result.requests.average;
    };
    for (let round = 0; round < ROUNDS; round++) {
      // bare, target 1, bare, target 2, …, bare: each target's baseline is the mean of the bare runs on either side.
      let before = await measureBare();
      let honoRps = 0;
      for (const target of targets) {
        const result = await autocannonRun(target);
        const after = await measureBare();
        const rps = result.requests.average;
        if (target === targets[0]) honoRps = rps;
        const sample = samples.get(target.name);
        sample.rps.push(rps);
        sample.ratio.push(rps / ((before + after) / 2));
        if (target !== targets[0]) sample.hono.push(rps / honoRps);
        sample.p99.push(result.latency.p99);
        sample.failed += result.non2xx + result.errors + result.timeouts;
        before = after;
      }
    }
    samples.set(bare.name, { ...bareSample, ratio: [1], hono: [] });
    const openLoop = new Map();
    for (const target of [bare, ...targets]) openLoop.set(target.name, await openLoopLatency(target, { rate: OPEN_LOOP_RATE }));

    return [bare, ...targets].map((target) => {
      const s = samples.get(target.name);
      const steady = openLoop.get(target.name);
      return {
        name: target.name,
        'req/s min / median': `${Math.round(min(s.rps))} / ${Math.round(median(s.rps))}`,
        'of bare min / median': `${percent(min(s.ratio))} / ${percent(median(s.ratio))}`,
        'of Hono median': s.hono.length ? percent(median(s.hono)) : '',
        'p99 saturated ms (median)': median(s.p99),
        [`p99 @ ${OPEN_LOOP_RATE}/s ms`]: steady.p99,
        failed: s.failed + steady.failed,
      };
    });
  } finally {
    for (const child of children) await stopChild(child.process);
    rmSync(dir, { recursive: true, force: true });
  }
}

export const THROUGHPUT_SETUP = `${CONNECTIONS} connections, ${DURATION} s per target, ${ROUNDS} rounds, ${
  process.env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : 'SQLite (WAL, synchronous=FULL)'
}`;

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await measureThroughput();
  console.log(`\nServer throughput on loopback: ${THROUGHPUT_SETUP}`);
  console.table(rows);
  if (rows.some((r) => r.failed > 0)) {
    console.error('Some requests failed; the numbers above are not valid.');
    process.exitCode = 1;
  }
}
