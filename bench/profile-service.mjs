// Where a request's time goes: runs the service as its own process under `node --cpu-prof`, drives one route with
// autocannon for a few seconds, stops the service and prints the functions with the most self time: their share
// of the samples taken while the load ran, and the CPU µs per request that share stands for. It also prints the
// service process's CPU time per request (user + system over the load, from /proc), which other processes' load
// hardly moves, so two versions can be compared on a busy machine.
// Run: node --import tsx bench/profile-service.mjs <create|read|post|scheduled|post-read|history> (`postread` = `post-read`;
// `history` reads `?limit=10` over ten stored posts, as publish-throughput.mjs does)
// Environment: INCLUSIVE=1 prints total time per function (its callees included) instead of self time;
// NO_PROFILE=1 measures CPU per request without the profiler (which costs CPU itself); SERVICE_ROOT=<dir> runs
// the service of another copy of the repository (e.g. `git archive main`), for a before/after pair; TOP=<n> rows;
// BENCH_SECONDS=<s>, BENCH_CONNECTIONS=<n> (20); PROFILE_OUT=<file> keeps the profile (with the load's window) for
// bench/profile-tree.mjs. Other variables pass through to the service, e.g. SQLITE_SYNCHRONOUS=normal.
import autocannon from 'autocannon';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startChildService } from '../server/test/support/child-service.ts';
import { stopChild } from '../server/test/support/stop-child.ts';
import { enterpriseWithLinkedin } from './enterprise-linkedin.mjs';
import { cpuMs } from './process-stats.mjs';

const route = process.argv[2] === 'post-read' ? 'postread' : (process.argv[2] ?? 'create');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
/** BENCH_CONNECTIONS=1: one request at a time, so the idle share is the time a request waits (syncs, the network). */
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const PROFILING = process.env.NO_PROFILE !== '1';
const API_KEY = 'sk_bench_' + 'x'.repeat(40);
const ADMIN_TOKEN = 'bench-admin-token-' + 'a'.repeat(32);
const dir = mkdtempSync(join(tmpdir(), 'slk-profile-'));
const profiles = join(dir, 'profiles');
const env = {
  DATA_DIR: dir,
  API_KEY,
  ADMIN_TOKEN,
  // A free port: other runs of this bench (or of other benches) may be going on beside this one.
  PORT: process.env.PORT ?? String(await freePort()),
  SANDBOX_NETWORKS: 'all',
  RATE_LIMIT_SESSION_CREATE_PER_MINUTE: '100000000',
  RATE_LIMIT_TOKEN_LOOKUPS_PER_MINUTE: '100000000',
};
const script = process.env.SERVICE_ROOT ? join(process.env.SERVICE_ROOT, 'server/src/main.ts') : undefined;
const service = await startChildService(env, { script, nodeArgs: PROFILING ? ['--cpu-prof', `--cpu-prof-dir=${profiles}`] : [] });
service.process.stdout.removeAllListeners('data').resume();

/** User + system CPU time of a process so far, in µs. */
const cpuMicros = (pid) => 1000 * cpuMs(pid);

let window;
let requests;
try {
  const headers = { Authorization: `Bearer ${API_KEY}`, 'Content-Type': 'application/json' };
  const api = `${service.url}/api`;
  const created = await (await fetch(`${api}/profiles/link-sessions`, { method: 'POST', headers, body: '{}' })).json();
  let target;
  if (route === 'create') target = { url: `${api}/profiles/link-sessions`, method: 'POST', body: '{}' };
  else if (route === 'read') target = { url: `${api}/profiles/link-sessions/${created.sessionId}`, method: 'GET' };
  else if (route === 'post' || route === 'scheduled' || route === 'postread' || route === 'history') {
    await enterpriseWithLinkedin(service.url, API_KEY, ADMIN_TOKEN);
    // `scheduled`: a week ahead, in the API's form (no milliseconds).
    const scheduleDate = route === 'scheduled' ? new Date(Date.now() + 7 * 86_400_000).toISOString().replace(/\.\d{3}Z$/, 'Z') : undefined;
    const body = () => JSON.stringify({ post: `Profile ${randomBytes(16).toString('hex')}`, platforms: ['linkedin'], scheduleDate });
    target = { url: `${api}/post`, method: 'POST', requests: [{ setupRequest: (request) => ({ ...request, body: body() }) }] };
    if (route === 'postread') {
      const posted = await (await fetch(`${api}/post`, { method: 'POST', headers, body: body() })).json();
      target = { url: `${api}/post/${posted.id}`, method: 'GET' };
    } else if (route === 'history') {
      // A full page of ten, as publish-throughput.mjs reads it.
      for (let i = 0; i < 10; i++) await (await fetch(`${api}/post`, { method: 'POST', headers, body: body() })).json();
      target = { url: `${api}/history?limit=10`, method: 'GET' };
    }
  } else throw new Error(`unknown route ${route}: create, read, post, scheduled, post-read or history`);
  // The profiler's clock and process.hrtime are both the monotonic clock: the window selects the load's samples.
  const cpuBefore = cpuMicros(service.process.pid);
  const startedAt = Number(process.hrtime.bigint() / 1000n);
  const result = await new Promise((resolve, reject) =>
    autocannon({ duration: SECONDS, connections: CONNECTIONS, headers, ...target }, (error, r) => (error ? reject(error) : resolve(r))),
  );
  window = [startedAt, Number(process.hrtime.bigint() / 1000n)];
  const cpu = cpuMicros(service.process.pid) - cpuBefore;
  requests = result.requests.total;
  console.log(
    `${route}: ${Math.round(result.requests.average)} req/s, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}; ` +
      `service CPU ${(cpu / requests).toFixed(1)} µs per request (${requests} requests${PROFILING ? ', profiler on' : ''})`,
  );
} finally {
  await stopChild(service.process);
}
if (PROFILING) printProfile();
rmSync(dir, { recursive: true, force: true });

function printProfile() {
  // The main thread's profile is the largest file (tsx's loader thread writes a small one too).
  const file = readdirSync(profiles)
    .map((name) => join(profiles, name))
    .sort((a, b) => statSync(b).size - statSync(a).size)[0];
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  if (process.env.PROFILE_OUT) writeFileSync(process.env.PROFILE_OUT, JSON.stringify({ ...profile, window, requests }));
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const nameOf = (id) => {
    const { functionName, url, lineNumber } = nodes.get(id).callFrame;
    const where = url.replace(/.*node_modules\//, '').replace(/.*\/(server|src)\//, '$1/');
    return `${functionName || '(anonymous)'} ${where}${where ? `:${lineNumber + 1}` : ''}`;
  };
  const inclusive = process.env.INCLUSIVE === '1';
  const samples = new Map();
  let total = 0;
  let time = profile.startTime;
  let inWindowMicros = 0;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index];
    time += delta;
    if (time < window[0] || time > window[1]) return;
    total++;
    inWindowMicros += delta;
    const names = new Set([nameOf(id)]);
    if (inclusive) for (let at = parents.get(id); at !== undefined; at = parents.get(at)) names.add(nameOf(at));
    for (const name of names) samples.set(name, (samples.get(name) ?? 0) + 1);
  });
  // Each sample stands for an equal share of the window's wall time; idle samples say how much of it was not CPU.
  const microsPerSample = inWindowMicros / total;
  console.log(`${inclusive ? 'total' : 'self'} time, share of the ${total} samples during the load, and wall µs per request it stands for`);
  for (const [name, count] of [...samples].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.TOP ?? 25))) {
    const perRequest = (count * microsPerSample) / requests;
    console.log(`${((100 * count) / total).toFixed(1).padStart(5)} %  ${perRequest.toFixed(2).padStart(6)} µs  ${name}`);
  }
}
