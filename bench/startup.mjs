// Start-up time and idle memory of the service, from source through tsx (`node --import tsx server/src/main.ts`,
// how it ran before the server build) and from the build (`node server/dist/main.js`, `npm run build:server`
// first): time from spawn to the first 200 from /ready, and the resident set 5 s after that, each start in a fresh
// SQLite DATA_DIR, the two alternating, ROUNDS rounds (default 5), medians. `node bench/startup.mjs`
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median } from './median.mjs';
import { rssMb } from './process-stats.mjs';

const ROOT = new URL('..', import.meta.url).pathname;
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const TARGETS = {
  'tsx (source)': ['--import', 'tsx', 'server/src/main.ts'],
  'node (server/dist)': ['server/dist/main.js'],
};

const freePort = () =>
  new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

async function once(args) {
  const dir = mkdtempSync(join(tmpdir(), 'slk-startup-'));
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, DATA_DIR: dir, PORT: String(port), HOST: '127.0.0.1' }, stdio: 'ignore' });
  try {
    for (;;) {
      const ready = await fetch(`http://127.0.0.1:${port}/ready`).catch(() => null);
      if (ready?.status === 200) break;
      if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${child.exitCode}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const ms = performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 5000));
    return { ms, rss: rssMb(child.pid) };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(dir, { recursive: true, force: true });
  }
}

const results = Object.fromEntries(Object.keys(TARGETS).map((name) => [name, []]));
for (let round = 0; round < ROUNDS; round++) {
  const names = Object.keys(TARGETS);
  if (round % 2) names.reverse();
  for (const name of names) results[name].push(await once(TARGETS[name]));
}
console.log(`| Start (${ROUNDS} rounds, medians) | spawn → /ready 200 | RSS 5 s after ready |`);
console.log('|---|---|---|');
for (const [name, runs] of Object.entries(results)) {
  console.log(`| ${name} | ${Math.round(median(runs.map((r) => r.ms)))} ms (${runs.map((r) => Math.round(r.ms)).join(', ')}) | ${median(runs.map((r) => r.rss)).toFixed(1)} MB |`);
}
