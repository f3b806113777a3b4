// The client side of one outbound call (issue 31): the guarded fetch against Node's own `http.request` on a kept-alive
// connection, to a loopback server that answers as a network's API does (JSON, a few headers). Both run in this
// process, interleaved in rounds, so the server's share is the same in each: the difference is the client's work.
// Prints min / median µs per call of each client per round, and this process's CPU per call.
// SERVICE_ROOT=<dir>: the guarded fetch of another copy of the repository (e.g. `git archive`), run beside this one.
// Run: node --import tsx bench/guarded-fetch-calls.mjs
import { Agent, createServer, request } from 'node:http';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createGuardedFetch } from '../server/src/core/guarded-fetch.ts';
import { median } from './median.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CALLS = Number(process.env.BENCH_CALLS ?? 2000);
const answer = JSON.stringify({ id: 'urn:li:share:7123456789', created: { time: 1764300000000 }, lifecycleState: 'PUBLISHED' });

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    res.writeHead(201, { 'content-type': 'application/json', 'x-restli-id': 'urn:li:share:7123456789', 'x-li-uuid': 'AAYb2m', 'cache-control': 'no-cache' });
    res.end(answer);
  });
});
await new Promise((done) => server.listen(0, '127.0.0.1', done));
const url = `http://127.0.0.1:${server.address().port}/rest/posts`;
const body = JSON.stringify({ author: 'urn:li:person:abc', commentary: 'x'.repeat(200), visibility: 'PUBLIC', lifecycleState: 'PUBLISHED' });
const headers = { Authorization: 'Bearer ' + 't'.repeat(40), 'Content-Type': 'application/json', 'LinkedIn-Version': '202411', 'X-Restli-Protocol-Version': '2.0.0' };
const options = { allowPrivateTargets: true, timeoutMs: 10_000, maxBytes: 10 * 1024 * 1024, maxRedirects: 5 };

const clients = {};
clients['guarded fetch'] = createGuardedFetch(options);
if (process.env.SERVICE_ROOT) {
  // The operator's own checkout named by SERVICE_ROOT, as the other benches run it.
  const before = pathToFileURL(join(resolve(process.env.SERVICE_ROOT), 'server/src/core/guarded-fetch.ts')).href;
  clients['guarded fetch (SERVICE_ROOT)'] = (await import(/* eslint-disable-line no-unsanitized/method */ before)).createGuardedFetch(options);
}
const agent = new Agent({ keepAlive: true });
const bare = () =>
  new Promise((done, fail) => {
    const req = request(url, { method: 'POST', headers: { ...headers, 'content-length': Buffer.byteLength(body) }, agent }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => done(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
    });
    req.on('error', fail);
    req.end(body);
  });
const runs = { 'http.request': bare };
for (const [name, fetch] of Object.entries(clients)) runs[name] = async () => (await fetch(url, { method: 'POST', headers, body })).json();

const rows = [];
for (let round = 1; round <= ROUNDS; round++) {
  for (const [name, run] of Object.entries(runs)) {
    for (let i = 0; i < 200; i++) await run();
    const times = [];
    const cpu = process.cpuUsage();
    for (let i = 0; i < CALLS; i++) {
      const started = performance.now();
      await run();
      times.push((performance.now() - started) * 1000);
    }
    const used = process.cpuUsage(cpu);
    rows.push({ round, client: name, load: loadavg()[0].toFixed(1), 'µs per call (min / median)': `${Math.min(...times).toFixed(0)} / ${median(times).toFixed(0)}`, 'CPU µs per call (client + server)': ((used.user + used.system) / CALLS).toFixed(0) });
  }
}
console.table(rows);
server.close();
agent.destroy();
process.exit(0);
