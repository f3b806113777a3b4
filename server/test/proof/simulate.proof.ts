/**
 * CI's run of the seeded simulation (simulation.ts): SIM_SEEDS seeds (default 200) of SIM_POSTS posts (default 6) on
 * SQLite; under scripts/with-postgres.sh every SIM_PG_EVERY-th of them (default 4) on a fresh PostgreSQL database. Two seeds run at a time. A failing seed is named with its schedule; `npm run simulate -- --seed N --posts M`
 * replays it. SIM_OPEN_SEEDS names seeds known to fail for an open cause: they are left out and listed in the summary.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { freshDatabase } from '../support/fresh-database.js';
import { failed, simulate, type SimResult } from './simulation.js';

process.env.TZ ??= 'America/New_York';
const SEEDS = Number(process.env.SIM_SEEDS ?? 200);
const POSTS = Number(process.env.SIM_POSTS ?? 6);
const PG_EVERY = Number(process.env.SIM_PG_EVERY ?? 4);
/** Seeds known to fail for an open cause (README "Publishing you can prove", known limits): not run, named in the summary. */
const OPEN = new Set((process.env.SIM_OPEN_SEEDS ?? '').split(',').filter(Boolean).map(Number));

async function runSeed(seed: number, onPostgres: boolean): Promise<SimResult> {
  const database = onPostgres ? await freshDatabase('slk_sim') : null;
  try {
    return await simulate(seed, POSTS, { databaseUrl: database?.url });
  } finally {
    await database?.drop();
  }
}

it(`simulation seeds 1-${SEEDS} (${POSTS} posts each) ${process.env.TEST_DATABASE_URL ? `on PostgreSQL, every ${PG_EVERY}th` : 'on SQLite'}`, { timeout: 30 * 60_000 }, async () => {
  const runs: { seed: number; onPostgres: boolean }[] = [];
  // SQLite runs every seed; the PostgreSQL pass (scripts/with-postgres.sh) runs its share only.
  const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
  for (let seed = 1; seed <= SEEDS; seed++) if ((!onPostgres || seed % PG_EVERY === 0) && !OPEN.has(seed)) runs.push({ seed, onPostgres });
  const failures: string[] = [];
  const began = Date.now();
  let next = 0;
  const lane = async () => {
    while (next < runs.length) {
      const { seed, onPostgres } = runs[next++]!;
      const result = await runSeed(seed, onPostgres);
      if (failed(result)) {
        const { duplicates, lost, stuck, late, webhooks } = result;
        failures.push(`seed ${seed} (${onPostgres ? 'PostgreSQL' : 'SQLite'}): ${JSON.stringify({ duplicates, lost, stuck, late, webhooks })}\nschedule: ${JSON.stringify(result.schedule)}`);
      }
    }
  };
  await Promise.all([lane(), lane()]);
  const open = [...OPEN].filter((seed) => seed <= SEEDS);
  console.log(`# simulation: ${runs.length - failures.length}/${runs.length} seed runs passed (${SEEDS} seeds × ${POSTS} posts, TZ ${process.env.TZ}${open.length > 0 ? `; open, not run: ${open.join(', ')}` : ''}) in ${Date.now() - began} ms`);
  assert.deepEqual(failures, []);
});
