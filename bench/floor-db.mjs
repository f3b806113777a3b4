// How far below bare node:http the least database work of a route already puts it (issue 31's accept and read
// goals): bench/floor-db-server.mjs with FLOOR=sqlite-accept (a scheduled accept's lookup and writes on SQLite, no
// sync) and, with DATABASE_URL, FLOOR=pg-read (one PostgreSQL round trip through `pg`), each measured between two
// bare runs (throughput-rounds.mjs's roundsBesideBare), BENCH_ROUNDS rounds, min / median. A goal above its floor's ratio cannot
// be met by any code on this machine that still does that work.
import { startChildService } from '../server/test/support/child-service.ts';
import { stopChild } from '../server/test/support/stop-child.ts';
import { median } from './median.mjs';
import { CONNECTIONS, DURATION, ROUNDS, roundsBesideBare } from './throughput-rounds.mjs';

const floors = [
  { floor: 'sqlite-accept', port: 18801, method: 'POST', goal: 'scheduled POST /api/post ≥ 25 %' },
  { floor: 'sqlite-accept', bands: 0, port: 18803, method: 'POST', goal: '(the same, no near-duplicate bands)' },
  { floor: 'sqlite-accept', batch: true, port: 18804, method: 'POST', goal: '(the same, one transaction per loop turn)' },
  ...(process.env.DATABASE_URL ? [{ floor: 'pg-read', port: 18802, method: 'GET', goal: 'GET /api/post/:id ≥ 50 % (PostgreSQL)' }] : []),
];
const start = (script, env, port) => startChildService({ ...env, PORT: String(port) }, { script });
const children = [await start('bench/bare-server.mjs', {}, 18800)];
try {
  for (const f of floors) children.push(await start('bench/floor-db-server.mjs', { FLOOR: f.floor, BANDS: f.bands === 0 ? '0' : '10', BATCH: f.batch ? '1' : '0' }, f.port));
  const bare = { url: 'http://127.0.0.1:18800/', method: 'POST', body: '{}' };
  let text = 0;
  const targets = floors.map((f) => ({
    ...f,
    url: `http://127.0.0.1:${f.port}/`,
    // A fresh text per request, as the service's bench sends.
    makeBody: f.method === 'POST' ? () => JSON.stringify({ post: `Floor ${text++} ${Math.random()}` }) : undefined,
    ratios: [],
    rps: [],
  }));
  await roundsBesideBare(bare, targets, {
    onTarget: (target, result, bareRps) => {
      if (result.non2xx + result.errors > 0) throw new Error(`${target.floor}: ${result.non2xx + result.errors} failed requests`);
      target.rps.push(result.requests.average);
      target.ratios.push(result.requests.average / bareRps);
    },
  });
  const percent = (value) => `${(value * 100).toFixed(1)} %`;
  console.log(`\nDatabase floors beside bare node:http: ${CONNECTIONS} connections, ${DURATION} s per target, ${ROUNDS} rounds`);
  console.table(
    targets.map((t) => ({
      floor: `${t.floor}${t.bands === 0 ? ', no bands' : ''}${t.batch ? ', batched' : ''}`,
      'req/s min / median': `${Math.round(Math.min(...t.rps))} / ${Math.round(median(t.rps))}`,
      'of bare min / median': `${percent(Math.min(...t.ratios))} / ${percent(median(t.ratios))}`,
      'the goal it bounds': t.goal,
    })),
  );
} finally {
  for (const child of children) await stopChild(child.process);
}
