// Where a request's time goes: runs the service as its own process under `node --cpu-prof`, drives one route with
// autocannon for a few seconds, stops the service and prints the functions with the most self time (share of all
// samples, start-up included). Run: node --import tsx bench/profile-service.mjs <create|read|post|history>
// (environment variables pass through to the service, e.g. SQLITE_SYNCHRONOUS=normal).
import autocannon from 'autocannon';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChildService } from '../server/test/support/child-service.ts';
import { stopChild } from '../server/test/support/stop-child.ts';

const route = process.argv[2] ?? 'create';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const API_KEY = 'sk_bench_' + 'x'.repeat(40);
const ADMIN_TOKEN = 'bench-admin-token-' + 'a'.repeat(32);
const dir = mkdtempSync(join(tmpdir(), 'slk-profile-'));
const profiles = join(dir, 'profiles');
const env = {
  DATA_DIR: dir,
  API_KEY,
  ADMIN_TOKEN,
  PORT: '18801',
  SANDBOX_NETWORKS: 'all',
  RATE_LIMIT_SESSION_CREATE_PER_MINUTE: '100000000',
  RATE_LIMIT_TOKEN_LOOKUPS_PER_MINUTE: '100000000',
};
const service = await startChildService(env, { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profiles}`] });
service.process.stdout.removeAllListeners('data').resume();
try {
  const headers = { Authorization: `Bearer ${API_KEY}`, 'Content-Type': 'application/json' };
  const api = `${service.url}/api`;
  const created = await (await fetch(`${api}/profiles/link-sessions`, { method: 'POST', headers, body: '{}' })).json();
  let target;
  if (route === 'create') target = { url: `${api}/profiles/link-sessions`, method: 'POST', body: '{}' };
  else if (route === 'read') target = { url: `${api}/profiles/link-sessions/${created.sessionId}`, method: 'GET' };
  else if (route === 'history') target = { url: `${api}/history?limit=10`, method: 'GET' };
  else if (route === 'post') {
    const admin = { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' };
    const { accounts } = await (await fetch(`${service.url}/admin/api/accounts`, { headers: admin })).json();
    await fetch(`${service.url}/admin/api/accounts/${accounts[0].id}`, { method: 'PATCH', headers: admin, body: JSON.stringify({ plan: 'enterprise' }) });
    await fetch(`${api}/sandbox/accounts`, { method: 'POST', headers, body: JSON.stringify({ platform: 'linkedin' }) });
    const body = () => JSON.stringify({ post: `Profile ${randomBytes(16).toString('hex')}`, platforms: ['linkedin'] });
    target = { url: `${api}/post`, method: 'POST', requests: [{ setupRequest: (request) => ({ ...request, body: body() }) }] };
  } else throw new Error(`unknown route ${route}: create, read, post or history`);
  const result = await new Promise((resolve, reject) =>
    autocannon({ duration: SECONDS, connections: 20, headers, ...target }, (error, r) => (error ? reject(error) : resolve(r))),
  );
  console.log(`${route}: ${Math.round(result.requests.average)} req/s, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}`);
} finally {
  await stopChild(service.process);
}
// The main thread's profile is the largest file (tsx's loader thread writes a small one too).
const file = readdirSync(profiles)
  .map((name) => join(profiles, name))
  .sort((a, b) => statSync(b).size - statSync(a).size)[0];
const profile = JSON.parse(readFileSync(file, 'utf8'));
rmSync(dir, { recursive: true, force: true });
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const selfSamples = new Map();
for (const id of profile.samples) {
  const { functionName, url, lineNumber } = nodes.get(id).callFrame;
  const where = url.replace(/.*node_modules\//, '').replace(/.*\/(server|src)\//, '$1/');
  const name = `${functionName || '(anonymous)'} ${where}${where ? `:${lineNumber + 1}` : ''}`;
  selfSamples.set(name, (selfSamples.get(name) ?? 0) + 1);
}
const total = profile.samples.length;
for (const [name, count] of [...selfSamples].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.TOP ?? 25))) {
  console.log(`${((100 * count) / total).toFixed(1).padStart(5)} %  ${name}`);
}
