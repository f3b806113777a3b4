// The measuring core shared by the throughput benchmarks (server-throughput.mjs for link sessions,
// publish-throughput.mjs for publishing): the service, a bare node:http server and a bare one-route Hono app as
// child processes; every round measures bare node:http between every two targets, so a target's ratio is to the
// mean of the baseline runs just before and just after it (the machine's load drifts); rounds repeat
// (BENCH_ROUNDS, default 3) and the rows give min and median; then latency at a steady rate (open loop,
// open-loop.mjs) for each target. A target may carry `makeBody()` (a fresh body per request), `openLoopRate` and
// `target` (the goal its row states).
import autocannon from 'autocannon';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChildService } from '../server/test/support/child-service.ts';
import { stopChild } from '../server/test/support/stop-child.ts';
import { median } from './median.mjs';
import { openLoopLatency } from './open-loop.mjs';

export const DURATION = Number(process.env.BENCH_SECONDS ?? 4);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
export const OPEN_LOOP_RATE = Number(process.env.BENCH_RATE ?? 1000);
export const BENCH_API_KEY = 'sk_bench_' + 'x'.repeat(40);

/** Every process starts through the shared test harness (server/test/support/), which runs it with tsx. */
const startProcess = (script, env, port) => startChildService({ ...env, PORT: String(port) }, { script });

function autocannonRun(target) {
  const requests = target.makeBody ? [{ setupRequest: (request) => ({ ...request, body: target.makeBody() }) }] : undefined;
  return new Promise((resolve, reject) => {
    autocannon(
      { duration: DURATION, connections: CONNECTIONS, url: target.url, method: target.method, headers: target.headers, body: target.body, requests },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

/**
 * ROUNDS rounds of bare, target 1, bare, target 2, …, bare: `onTarget` gets each target's run with the mean req/s
 * of the bare runs on either side of it (the machine's load drifts), `onBare` each bare run.
 */
export async function roundsBesideBare(bare, targets, { onBare = () => {}, onTarget }) {
  const measureBare = async () => {
    const result = await autocannonRun(bare);
    onBare(result);
    return result.requests.average;
  };
  for (let round = 0; round < ROUNDS; round++) {
    let before = await measureBare();
    for (const target of targets) {
      const result = await autocannonRun(target);
      const after = await measureBare();
      onTarget(target, result, (before + after) / 2);
      before = after;
    }
  }
}

const min = (values) => Math.min(...values);
const percent = (value) => `${(value * 100).toFixed(1)} %`;

/**
 * Starts the service (`serviceEnv` added to a fresh SQLite directory, or DATABASE_URL when set) and both
 * baselines on fixed loopback ports, asks `prepare({api, headers})` for the service's targets, and measures.
 * Returns one row per target, the bare baselines first.
 */
export async function measureBesideBaselines({ ports, serviceEnv = {}, prepare }) {
  const dir = mkdtempSync(join(tmpdir(), 'slk-bench-'));
  const [servicePort, barePort, honoPort] = ports;
  // Generous limits so the benchmark measures the service, not its abuse limits.
  const limitsOff = { RATE_LIMIT_SESSION_CREATE_PER_MINUTE: '100000000', RATE_LIMIT_TOKEN_LOOKUPS_PER_MINUTE: '100000000' };
  const children = [];
  try {
    children.push(await startProcess('server/src/main.ts', { DATA_DIR: dir, API_KEY: BENCH_API_KEY, ...limitsOff, ...serviceEnv }, servicePort));
    children.push(await startProcess('bench/bare-server.mjs', {}, barePort));
    children.push(await startProcess('bench/bare-hono.mjs', {}, honoPort));
    // The service logs a line per request; drop it as it comes instead of keeping it for the whole run.
    for (const child of children) child.process.stdout.removeAllListeners('data').resume();

    const api = `http://127.0.0.1:${servicePort}/api`;
    const headers = { Authorization: `Bearer ${BENCH_API_KEY}`, 'Content-Type': 'application/json' };
    const bare = { name: 'bare node:http (baseline)', url: `http://127.0.0.1:${barePort}/`, method: 'POST', body: '{}' };
    const hono = { name: 'bare Hono, one route', url: `http://127.0.0.1:${honoPort}/`, method: 'POST', body: '{}' };
    const targets = [hono, ...(await prepare({ api, headers, origin: `http://127.0.0.1:${servicePort}` }))];

    const samples = new Map(targets.map((t) => [t.name, { rps: [], ratio: [], hono: [], p99: [], failed: 0 }]));
    const bareSample = { rps: [], p99: [], failed: 0 };
    // Hono is the first target of each round, so the round's later targets are compared with its run.
    let honoRps = 0;
    await roundsBesideBare(bare, targets, {
      onBare: (result) => {
        bareSample.rps.push(result.requests.average);
        bareSample.p99.push(result.latency.p99);
        bareSample.failed += result.non2xx + result.errors + result.timeouts;
      },
      onTarget: (target, result, bareRps) => {
        const rps = result.requests.average;
        if (target === hono) honoRps = rps;
        const sample = samples.get(target.name);
        sample.rps.push(rps);
        sample.ratio.push(rps / bareRps);
        if (target !== hono) sample.hono.push(rps / honoRps);
        sample.p99.push(result.latency.p99);
        sample.failed += result.non2xx + result.errors + result.timeouts;
      },
    });
    samples.set(bare.name, { ...bareSample, ratio: [1], hono: [] });
    const openLoop = new Map();
    for (const target of [bare, ...targets]) {
      openLoop.set(target.name, await openLoopLatency(target, { rate: target.openLoopRate ?? OPEN_LOOP_RATE }));
    }

    return [bare, ...targets].map((target) => {
      const s = samples.get(target.name);
      const steady = openLoop.get(target.name);
      return {
        name: target.name,
        'req/s min / median': `${Math.round(min(s.rps))} / ${Math.round(median(s.rps))}`,
        'of bare min / median': `${percent(min(s.ratio))} / ${percent(median(s.ratio))}`,
        'of Hono median': s.hono.length ? percent(median(s.hono)) : '',
        'p99 saturated ms (median)': median(s.p99),
        'open loop rate/s': target.openLoopRate ?? OPEN_LOOP_RATE,
        'p99 open loop ms': steady.p99,
        failed: s.failed + steady.failed,
        ...(target.target && { target: target.target }),
      };
    });
  } finally {
    for (const child of children) await stopChild(child.process);
    rmSync(dir, { recursive: true, force: true });
  }
}

export const THROUGHPUT_SETUP = `${CONNECTIONS} connections, ${DURATION} s per target, ${ROUNDS} rounds, ${
  process.env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : 'SQLite (WAL, SQLITE_SYNCHRONOUS=mixed: session creates not fsynced, everything else fsynced)'
}`;

/** Prints the rows as the one table of a throughput benchmark run on its own; exit code 1 if requests failed. */
export function printThroughput(title, rows) {
  console.log(`\n${title}: ${THROUGHPUT_SETUP}`);
  console.table(rows);
  if (rows.some((r) => r.failed > 0)) {
    console.error('Some requests failed; the numbers above are not valid.');
    process.exitCode = 1;
  }
}
