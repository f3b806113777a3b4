// `npm run bench`: every benchmark in one run, printed as one table. Budgets fail the run; timings are reported,
// never asserted. Starts its own service + demo (child processes, fresh SQLite) on loopback.
import { execFileSync } from 'node:child_process';
import { startChildService } from '../server/test/support/child-service.ts';
import { stopChild } from '../server/test/support/stop-child.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measureClickToUi } from './click-to-ui.mjs';
import { runLighthouse } from './lighthouse.mjs';
import { THROUGHPUT_SETUP, measureThroughput } from './server-throughput.mjs';
import { measurePublishThroughput } from './publish-throughput.mjs';
import { measurePublishLatency } from './publish-latency.mjs';
import { measureImmediateOverhead } from './immediate-overhead.mjs';
import { measureRoutesWhilePosting } from './routes-while-posting.mjs';

const gzipOf = (output) => Number(/gzip [\d.]+ KB \((\d+) B\)/.exec(output)?.[1] ?? NaN);
const run = (script) => execFileSync(process.execPath, [script], { encoding: 'utf8' });

execFileSync('npm', ['run', '-s', 'build'], { stdio: 'inherit' });
const rows = [];
const cdn = gzipOf(run('bench/bundle-size.mjs'));
rows.push({ measure: 'script-tag build, gzip', value: `${(cdn / 1024).toFixed(2)} KB`, budget: '≤ 8,780 B (target 8 KB)' });
const hosted = gzipOf(run('bench/hosted-size.mjs'));
rows.push({ measure: 'hosted page initial JS+CSS, gzip', value: `${(hosted / 1024).toFixed(2)} KB`, budget: '≤ 30 KB' });

const dir = mkdtempSync(join(tmpdir(), 'slk-bench-stack-'));
const apiKey = `sk_bench_${'s'.repeat(40)}`;
const stack = await startChildService(
  { DATA_DIR: dir, API_KEY: apiKey, PORT: '18881', DEMO_PORT: '18882', SANDBOX_NETWORKS: 'all' },
  { script: 'scripts/start.ts', ready: /Demo integrator site/ },
);
try {
  const created = await (
    await fetch('http://127.0.0.1:18881/api/profiles/link-sessions', {
      method: 'POST',
      headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ expiresIn: 30 }),
    })
  ).json();
  try {
    const lh = runLighthouse(created.url);
    rows.push({ measure: 'hosted page Lighthouse performance / accessibility', value: `${lh.performance} / ${lh.accessibility}`, budget: 'reported' });
    rows.push({ measure: 'hosted page FCP / LCP (Lighthouse, desktop)', value: `${lh.fcpMs} ms / ${lh.lcpMs} ms`, budget: 'reported' });
  } catch (error) {
    rows.push({ measure: 'hosted page Lighthouse', value: `not measured: ${String(error.message).slice(0, 80)}`, budget: 'reported' });
  }
  const click = await measureClickToUi('http://localhost:18882');
  const clickRow = (name, t) => ({ measure: `${name}, min / median of ${click.runs}`, value: `${t.min} / ${t.median} ms`, budget: 'reported' });
  rows.push(clickRow('click → static cross-site frame painted (floor)', click.floor));
  rows.push({ ...clickRow('click → linking UI painted, frame mode', click.frame), value: `${click.frame.min} / ${click.frame.median} ms (${click.frame.ofFloor.toFixed(2)}× floor)`, budget: '≤ 1.3× floor' });
  rows.push({ ...clickRow('click → static cross-site popup painted (popup floor)', click.popupFloor), value: `${click.popupFloor.min} / ${click.popupFloor.median} ms (${click.popupFloor.ofFloor.toFixed(2)}× floor)`, budget: 'reported' });
  rows.push({ ...clickRow('click → linking UI painted, popup mode', click.popup), value: `${click.popup.min} / ${click.popup.median} ms (${click.popup.ofFloor.toFixed(2)}× popup floor, ${click.popup.ofFrameFloor.toFixed(2)}× floor)`, budget: 'reported' });
} finally {
  await stopChild(stack.process);
  rmSync(dir, { recursive: true, force: true });
}

// Link sessions, then publishing; each run has its own baselines (the two bare rows of each).
for (const r of [...(await measureThroughput()), ...(await measurePublishThroughput())]) {
  rows.push({
    measure: `${r.name}: req/s min / median (of bare node:http; of bare Hono), p99 at ${r['open loop rate/s']}/s open loop`,
    value: `${r['req/s min / median']} (${r['of bare min / median']}${r['of Hono median'] ? `; ${r['of Hono median']}` : ''}), ${r['p99 open loop ms']} ms`,
    budget: r.failed ? 'FAILED REQUESTS' : (r.target ?? 'reported'),
  });
}
// An immediate post, one at a time: what the service adds to the network's own time (server-side marks).
for (const r of await measureImmediateOverhead()) {
  rows.push({
    measure: `immediate POST /api/post above the network's own time, round ${r.round}, min / median (load ${r.load})`,
    value: `${r['above the network (target ≤ 1.5 ms)']} (network ${r["network's own time (sandbox calls in the server)"]}; bare round trip ${r['bare round trip (client)']})`,
    budget: '≤ 1.5 ms',
  });
}
// Scheduled publishing against networks answering in 2 s (SANDBOX_LATENCY_MS), with its own same-moment baseline.
for (const r of await measurePublishLatency()) {
  rows.push({ measure: r.measure, value: `${r.value}${r.more ? `; ${r.more}` : ''} (load ${r.load})`, budget: r.failed ? `${r.failed} FAILED ATTEMPTS` : r.target });
}
// Other routes while posts are created without pause: what one feature leaves the others.
for (const r of await measureRoutesWhilePosting()) {
  if (r.route === 'POST /api/post alone') rows.push({ measure: `${r.route} (admission leaves it as fast as before), per round (load ${r.load})`, value: r['kept, min / median (target ≥ 80 %)'], budget: '' });
  else rows.push({ measure: `${r.route} while posts are created, % of its rate alone, min / median (load ${r.load})`, value: r['kept, min / median (target ≥ 80 %)'], budget: '≥ 80 %' });
}
console.log(`\nsocial-link-kit benchmarks (${new Date().toISOString()}; throughput: ${THROUGHPUT_SETUP})`);
console.table(rows);
if (cdn > 12 * 1024 || hosted > 30 * 1024) process.exitCode = 1;
