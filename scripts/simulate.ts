/**
 * `npm run simulate -- --seed N --posts M [--seeds K]`: the seeded simulation of server/test/proof/simulation.ts
 * (two instances, sandbox networks, the service clock, seeded faults). `--seeds K` runs seeds N … N+K-1. On SQLite
 * unless DATABASE_URL names a PostgreSQL server database. A failing seed prints its seed and fault schedule (the same
 * command with that seed replays the schedule) and the process exits 1.
 */
import { parseArgs } from 'node:util';
import { failed, simulate } from '../server/test/proof/simulation.js';

const { values } = parseArgs({ options: { seed: { type: 'string', default: '1' }, posts: { type: 'string', default: '20' }, seeds: { type: 'string', default: '1' } } });
const first = Number(values.seed);
const posts = Number(values.posts);
const count = Number(values.seeds);
if (![first, posts, count].every(Number.isInteger)) {
  console.error('usage: npm run simulate -- --seed N --posts M [--seeds K]');
  process.exit(2);
}
process.env.TZ ??= 'America/New_York';
let failures = 0;
const began = Date.now();
for (let seed = first; seed < first + count; seed++) {
  const result = await simulate(seed, posts, { databaseUrl: process.env.DATABASE_URL });
  if (failed(result)) {
    failures++;
    console.log(`seed ${seed} FAILED (replay: npm run simulate -- --seed ${seed} --posts ${posts})`);
    console.log(JSON.stringify({ duplicates: result.duplicates, lost: result.lost, stuck: result.stuck, late: result.late, webhooks: result.webhooks }, null, 2));
    console.log(`schedule: ${JSON.stringify(result.schedule)}`);
  } else {
    console.log(`seed ${seed}: ok (${posts} posts, faults ${result.schedule.faults.map((f) => `${f.fault}@${f.tick}`).join(' ') || 'none'}, ${result.ms} ms)`);
  }
}
console.log(`${count - failures}/${count} seeds passed in ${Date.now() - began} ms (${process.env.DATABASE_URL ? 'PostgreSQL' : 'SQLite'}, TZ ${process.env.TZ})`);
process.exit(failures > 0 ? 1 : 0);
