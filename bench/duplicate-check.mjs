// The duplicate rule's cost as stored posts grow (issue 31): the lookup a `POST /api/post` runs for one network,
// today's (migration 17: indexes on the profile/account key and near-duplicate bands) beside the scan it replaced
// (every row of the platform in ±24 h, all tenants), in one run on the same data. Rows are loaded as the API writes
// them: 80 % published over the last 30 days, 20 % scheduled over the next 30; bands only for rows a new post can
// still meet (older ones are pruned by the service). Spread: one profile, or 1,000 profiles with the measured one
// holding 1/1,000. SQLite; PostgreSQL too with TEST_DATABASE_URL (scripts/with-postgres.sh). A quarter of the
// looked-up texts are stored ones with a character changed (near duplicates); the figures are this process's CPU
// time per lookup (CLOCK=wall: elapsed): the rule's whole lookup (isDuplicate: rows, similarity test, liveness) and
// `candidates` alone ("SQL": the live rows sharing a band, without the similarity test).
// Run: node --import tsx bench/duplicate-check.mjs   (SIZES=1000,100000,1000000  LOOKUPS=200  SPREADS=1,1000; SCAN=0
// skips the old scan, which takes seconds per lookup at 1M posts; IN_WINDOW=1 puts every post inside the window of
// every lookup, the worst case for one heavy profile; TEXTS=varied, below; BASELINE_ROOT=<dir>, a copy of another
// version (e.g. `git archive main`), times that version's lookup on the same data in turns with this one's and
// checks that both find the same duplicates). Rows are inserted 200 per statement, 10,000 per transaction: 1M posts
// with their bands load in about 12 minutes here. KEEP=1 keeps the SQLite files (their directory is printed);
// DATABASE=<file> measures on a kept one (its last size) without loading; SQLITE=0 skips SQLite (for PostgreSQL);
// SQLITE_MMAP_MB=2048 reads the SQLite file through a memory map, as the service's setting of that name does.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAccount } from '../server/src/accounts/service.ts';
import { PostStore } from '../server/src/publishing/post-store.ts';
import { duplicateBands, nearDuplicateMatcher, normalizeForDuplicates, trigramCount } from '../server/src/publishing/rules/near-duplicate.ts';
import { newId } from '../server/src/core/tokens.ts';
import { PostgresStorage } from '../server/src/storage/postgres.ts';
import { SqliteStorage } from '../server/src/storage/sqlite.ts';
import { freshDatabase } from '../server/test/support/fresh-database.ts';
import { median } from './median.mjs';

const SIZES = (process.env.SIZES ?? '1000,100000,1000000').split(',').map(Number);
const LOOKUPS = Number(process.env.LOOKUPS ?? 200);
const SPREADS = (process.env.SPREADS ?? '1,1000').split(',').map(Number);
const SCAN = process.env.SCAN !== '0';
const IN_WINDOW = process.env.IN_WINDOW === '1';
const WALL = process.env.CLOCK === 'wall';
const DAY = 86_400_000;
const NOW = Date.parse('2026-11-27T12:00:00Z');
const WORDS = 'spring sale today shop new collection launch team hello weekend coffee city market open free event join us our best price limited offer order now music night photo travel summer winter'.split(' ');

/** The lookup the service ran before migration 17. */
const OLD_SCAN = `SELECT pp.duplicate_key, p.profile_id FROM post_platforms pp JOIN posts p ON p.id = pp.post_id JOIN profiles pr ON pr.id = p.profile_id
  WHERE pp.platform = ? AND pp.effective_at >= ? AND pp.effective_at <= ? AND p.status <> 'deleted' AND pp.status NOT IN ('error', 'deleted')
    AND (p.profile_id = ? OR (? = 1 AND pr.account_id = ? AND pp.duplicate_key = ?))`;

let seed = 42;
const rand = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4_294_967_296);
// TEXTS=varied: 6-40 words from 1,500 made-up ones, common ones more often (as the recall test's corpus); the
// default draws 10-30 words from 32, so unrelated texts are alike (Jaccard 0.3-0.6) and share bands far more often
// than real posts do: the worst case for one heavy profile.
const VARIED = process.env.TEXTS === 'varied';
const SYLLABLES = 'ka lo mi ne su ta ri po da le vi no ra ke mo si tu be la fo ga hi ju me ny pe qu se wo zi'.split(' ');
const MADE_UP = Array.from({ length: 1_500 }, () => Array.from({ length: 1 + Math.floor(rand() * 3) }, () => SYLLABLES[Math.floor(rand() * SYLLABLES.length)]).join(''));
const text = VARIED
  ? () => Array.from({ length: 6 + Math.floor(rand() * 35) }, () => MADE_UP[Math.floor(rand() ** 2 * MADE_UP.length)]).join(' ')
  : () => Array.from({ length: 10 + Math.floor(rand() * 20) }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(' ');

/** Rows per INSERT statement: multi-row VALUES lists make loading 1M posts take minutes, not an hour. */
const ROWS_PER_STATEMENT = 200;

/** Up to 1,000 of the measured profile's stored keys, drawn evenly from all loaded so far (reservoir sampling). */
const sample = [];
let kept = 0;
function keep(key) {
  kept++;
  if (sample.length < 1_000) sample.push(key);
  else if (rand() < 1_000 / kept) sample[Math.floor(rand() * 1_000)] = key;
}

/** A VALUES list of `count` copies of `row`. */
const rowsOf = (count, row) => Array.from({ length: count }, () => row).join(', ');

async function load(storage, profiles, accountId, from, to) {
  const db = storage.driver;
  await db.transaction(async (tx) => {
    for (let start = from; start < to; start += ROWS_PER_STATEMENT) {
      const posts = [];
      const platforms = [];
      const bands = [];
      for (let i = start; i < Math.min(to, start + ROWS_PER_STATEMENT); i++) {
        const profileId = profiles[i % profiles.length];
        const id = newId('post_');
        const published = rand() < 0.8;
        const status = published ? 'success' : 'scheduled';
        // The lookups are at NOW to NOW + 23 h, ±24 h each: IN_WINDOW's posts (NOW to NOW + 24 h) meet every one.
        const at = Math.round(IN_WINDOW ? NOW + rand() * DAY : published ? NOW - rand() * 30 * DAY : NOW + rand() * 30 * DAY);
        const key = normalizeForDuplicates(`${text()} ${i}`);
        if (profileId === profiles[0]) keep(key);
        posts.push(id, profileId, status, at, at, at);
        platforms.push(id, status, key, at, profileId, accountId);
        // As the service writes them (DuplicateIndex.insertBands), for rows a new post can still meet.
        if (at >= NOW - 2 * DAY) for (const band of duplicateBands(key)) bands.push(profileId, 'linkedin', band, at, id, trigramCount(key));
      }
      await tx.run(`INSERT INTO posts (id, profile_id, status, request, platforms, schedule_date, created_at, updated_at) VALUES ${rowsOf(posts.length / 6, `(?, ?, ?, '{}', '["linkedin"]', ?, ?, ?)`)}`, posts);
      await tx.run(`INSERT INTO post_platforms (post_id, platform, status, text, duplicate_key, effective_at, profile_id, account_id) VALUES ${rowsOf(platforms.length / 6, `(?, 'linkedin', ?, '', ?, ?, ?, ?)`)}`, platforms);
      for (let at = 0; at < bands.length; at += 6 * 1_000) {
        const chunk = bands.slice(at, at + 6 * 1_000);
        await tx.run(`INSERT INTO post_duplicate_bands (profile_id, platform, band, effective_at, post_id, grams) VALUES ${rowsOf(chunk.length / 6, '(?, ?, ?, ?, ?, ?)')} ON CONFLICT DO NOTHING`, chunk);
      }
    }
  });
}

/** This checkout's lookup and, with BASELINE_ROOT (e.g. a `git archive` of main), that copy's, timed in turns. */
const versions = [{ name: 'this', PostStore, nearDuplicateMatcher }];
if (process.env.BASELINE_ROOT) {
  const root = process.env.BASELINE_ROOT;
  const { PostStore: BaselineStore } = await import(/* eslint-disable-line no-unsanitized/method */ join(root, 'server/src/publishing/post-store.ts'));
  const { nearDuplicateMatcher: baselineMatcher } = await import(/* eslint-disable-line no-unsanitized/method */ join(root, 'server/src/publishing/rules/near-duplicate.ts'));
  versions.push({ name: 'baseline', PostStore: BaselineStore, nearDuplicateMatcher: baselineMatcher });
}

async function timeLookups(storage, profileId, accountId) {
  // Every fourth text is a stored one with one character changed: a near duplicate, if its post is in the window.
  // New texts for every round, as each POST brings its own: a text looked up again would find its trigrams cached.
  const newKeys = () => Array.from({ length: LOOKUPS }, (_, i) => {
    if (i % 4 !== 3) return normalizeForDuplicates(text());
    const stored = sample[Math.floor(rand() * sample.length)];
    const at = Math.floor(rand() * stored.length);
    return `${stored.slice(0, at)}x${stored.slice(at + 1)}`;
  });
  const keys = newKeys();
  const input = (key, i) => ({ profileId, accountId, platform: 'linkedin', at: NOW + (i % 24) * 3_600_000, windowMs: DAY, duplicateKey: key, acrossAccount: false });
  // As platform-checks.ts confirmed them before isDuplicate: one matcher per lookup, built only when a row is the profile's own.
  const matchAll = (matcher, key, rows) => {
    const isNear = rows.some((row) => row.sameProfile) ? matcher(key) : null;
    return rows.some((row) => row.duplicateKey === key || (row.sameProfile && isNear(row.duplicateKey)));
  };
  const lookups = versions.map(({ PostStore: Store, nearDuplicateMatcher: matcher }) => {
    const store = new Store(storage.driver);
    const candidates = (key, i) => store.duplicates.candidates(input(key, i));
    // The rule as the service applies it: isDuplicate where the index has it (the similarity test inside), else
    // the candidates confirmed as platform-checks.ts confirmed them.
    if (store.duplicates.isDuplicate) return { candidates, match: (key, i) => store.duplicates.isDuplicate(input(key, i)) };
    return { candidates, match: async (key, i) => matchAll(matcher, key, await candidates(key, i)) };
  });
  // This version must find every duplicate the baseline finds: the rule's outcome is not a thing to trade for time.
  // It may find more (a heavy profile's near duplicate that the baseline's bound on candidates left out).
  const answers = lookups.map(() => []);
  for (const [v, lookup] of lookups.entries()) for (const [i, key] of keys.entries()) answers[v].push(await lookup.match(key, i));
  for (const other of answers.slice(1)) {
    if (other.some((answer, i) => answer && !answers[0][i])) throw new Error('this version misses a duplicate the baseline finds');
    const more = answers[0].filter((answer, i) => answer && !other[i]).length;
    if (more > 0) console.log(`this version finds ${more} duplicate(s) of ${keys.length} lookups that the baseline misses`);
  }
  // Rounds in turns (this, baseline, this, ...), so both meet the same load and the same cache.
  // CPU time of this process (the lookups run on its one thread; SQLite's work included), which other processes'
  // load hardly moves, unlike the elapsed time (CLOCK=wall for that).
  const timed = (lookup) => async (keys) => {
    const started = process.hrtime.bigint();
    const cpu = process.cpuUsage();
    for (const [i, key] of keys.entries()) await lookup(key, i);
    const { user, system } = process.cpuUsage(cpu);
    return (WALL ? Number(process.hrtime.bigint() - started) / 1e6 : (user + system) / 1e3) / keys.length;
  };
  const rounds = async (runs) => {
    const times = runs.map(() => []);
    for (let round = 0; round < 3; round++) {
      const keys = newKeys();
      for (const [v, run] of runs.entries()) times[v].push(await run(keys));
    }
    return times;
  };
  const indexed = await rounds(lookups.map((lookup) => timed(lookup.match)));
  // The index lookup alone, and how many candidates it hands the similarity test (which costs the rest).
  let candidates = 0;
  const lookupOnly = await rounds(lookups.map((lookup, v) => timed(async (key, i) => {
    const rows = await lookup.candidates(key, i);
    if (v === 0) candidates += rows.length;
  })));
  const scan = !SCAN ? [NaN] : await (timed(async (key, i) => {
    const x = input(key, i);
    const rows = await storage.driver.all(OLD_SCAN, [x.platform, x.at - x.windowMs, x.at + x.windowMs, x.profileId, 0, x.accountId, key]);
    return matchAll(nearDuplicateMatcher, key, rows.map((row) => ({ duplicateKey: row.duplicate_key ?? '', sameProfile: row.profile_id === profileId })));
  }))(keys).then((time) => [time]);
  return { indexed, scan, lookupOnly, candidates: candidates / (3 * LOOKUPS), duplicates: answers[0].filter(Boolean).length };
}

/** A database KEEP=1 kept: its measured profile (the first one's), account and posts, and a sample of its texts. */
async function reopened(storage) {
  const profile = await storage.driver.get('SELECT p.id, p.account_id FROM profiles p JOIN accounts a ON a.id = p.account_id WHERE p.is_primary = 1 LIMIT 1');
  const posts = Number((await storage.driver.get('SELECT COUNT(*) AS n FROM posts'))?.n);
  for (const row of await storage.driver.all('SELECT duplicate_key FROM post_platforms WHERE profile_id = ? ORDER BY random() LIMIT 1000', [profile.id])) keep(row.duplicate_key);
  return { profileId: profile.id, accountId: profile.account_id, posts };
}

async function backend(name, open) {
  if (process.env.DATABASE) {
    const storage = await open();
    const { profileId, accountId, posts } = await reopened(storage);
    report(name, '?', posts, await timeLookups(storage, profileId, accountId));
    await storage.close();
    return;
  }
  for (const spread of SPREADS) {
    const storage = await open();
    const { account, primaryProfile } = await createAccount(storage, () => NOW, { plan: 'business' });
    const profiles = [primaryProfile.id];
    for (let i = 1; i < spread; i++) {
      const id = newId('prof_');
      await storage.driver.run('INSERT INTO profiles (id, account_id, ref_id, title, is_primary, created_at) VALUES (?, ?, ?, ?, 0, ?)', [id, account.id, newId(''), `p${i}`, NOW]);
      profiles.push(id);
    }
    let loaded = 0;
    const cacheSize = name === 'SQLite' ? (await storage.driver.get('PRAGMA cache_size'))?.cache_size : null;
    for (const size of SIZES) {
      // A 1 GB page cache while loading (the bands' B-tree is written in random order: with the default 2 MB, 1M
      // posts took over 20 minutes), the driver's own for the lookups.
      if (cacheSize !== null) await storage.driver.run('PRAGMA cache_size = -1048576');
      for (let from = loaded; from < size; from += 10_000) await load(storage, profiles, account.id, from, Math.min(size, from + 10_000));
      if (cacheSize !== null) await storage.driver.run(`PRAGMA cache_size = ${Number(cacheSize)}`);
      // PostgreSQL plans from its statistics, which autovacuum would only gather later: as a live table would have them.
      if (name === 'PostgreSQL') await storage.driver.run('ANALYZE');
      loaded = size;
      report(name, spread, size, await timeLookups(storage, primaryProfile.id, account.id));
    }
    await storage.close();
  }
}

function report(name, spread, size, { indexed, scan, lookupOnly, candidates, duplicates }) {
  const fmt = (values) => `${Math.min(...values).toFixed(3)} / ${median(values).toFixed(3)} ms`;
  const loadAverage = loadavg()[0].toFixed(2);
  for (const [v, { name: version }] of versions.entries()) {
    console.log(`${name.padEnd(10)} ${String(spread).padStart(5)} profile(s) ${String(size).padStart(8)} posts ${version.padEnd(8)}   indexed ${fmt(indexed[v])} (SQL ${fmt(lookupOnly[v])}, ${candidates.toFixed(0)} candidates, ${duplicates} duplicates)   scan ${fmt(scan)}   load ${loadAverage}`);
  }
}

const dir = mkdtempSync(join(tmpdir(), 'slk-dup-bench-'));
try {
  console.log(`duplicate lookup per POST${IN_WINDOW ? ', every post in the window' : ''}${VARIED ? ', varied texts' : ''}, ${WALL ? 'elapsed' : 'CPU'} time, min / median of 3 rounds of ${LOOKUPS}; load average ${loadavg()[0].toFixed(2)}`);
  let n = 0;
  // SQLITE=0 measures PostgreSQL alone.
  if (process.env.SQLITE !== '0') await backend('SQLite', async () => {
    // SQLITE_MMAP_MB as the service takes it (settings-schema.ts): the file read through a memory map.
    const storage = new SqliteStorage(process.env.DATABASE ?? join(dir, `bench-${n++}.db`), 'mixed', Number(process.env.SQLITE_MMAP_MB ?? 0));
    // What a setting of the driver would change, e.g. SQLITE_PRAGMA='mmap_size = 2147483648' or 'cache_size = -262144'.
    if (process.env.SQLITE_PRAGMA) await storage.driver.run(`PRAGMA ${process.env.SQLITE_PRAGMA}`);
    await storage.migrate();
    return storage;
  });
  if (process.env.TEST_DATABASE_URL && !process.env.DATABASE) {
    await backend('PostgreSQL', async () => {
      const fresh = await freshDatabase('slk_dup_bench');
      const storage = new PostgresStorage(fresh.url);
      await storage.migrate();
      const close = storage.close.bind(storage);
      storage.close = async () => {
        await close();
        await fresh.drop();
      };
      return storage;
    });
  }
} finally {
  if (process.env.KEEP === '1') console.log(`kept ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}
