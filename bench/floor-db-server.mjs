// The floors for issue 31's accept and read goals: a bare node:http server (as bench/bare-server.mjs) that does only
// the least database work a route of that kind must do, with none of the service's parsing, checks or framework.
// FLOOR picks which:
// - `pg-read`: one PostgreSQL round trip through `pg` (the service's client), a post row read by primary key with a
//   prepared statement, answered as JSON: the least a `GET /api/post/:id` on PostgreSQL can cost. Needs DATABASE_URL.
// - `sqlite-accept`: what a scheduled accept must write on SQLite, with none of its durability: one transaction that
//   looks up the ten near-duplicate bands in the ±24 h window, then inserts the post, its platform row, its job and
//   its ten band rows, with `synchronous = OFF` (no sync at all, where the service syncs every accept). The schema is
//   the service's shape (same keys and indexes), trimmed to the columns the statements need. BANDS=0 leaves the
//   near-duplicate rule out (no lookup, no band rows), to show what it costs; BATCH=1 lets the accepts of one turn
//   of the event loop share a transaction, each in its own savepoint.
import { createServer } from 'node:http';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const port = Number(process.env.PORT ?? 0);
const floor = process.env.FLOOR;

function readBody(req) {
  return new Promise((resolve) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

async function pgRead() {
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
  const table = `floor_posts_${process.pid}`;
  await pool.query(`CREATE UNLOGGED TABLE ${table} (id TEXT PRIMARY KEY, profile_id TEXT NOT NULL, post TEXT NOT NULL,
    status TEXT NOT NULL, platforms JSONB NOT NULL, schedule_date TIMESTAMPTZ, created_at TIMESTAMPTZ NOT NULL)`);
  const id = `post_${randomBytes(12).toString('hex')}`;
  await pool.query(`INSERT INTO ${table} VALUES ($1, 'profile_1', $2, 'success', $3, NULL, now())`, [
    id,
    `Bench ${randomBytes(24).toString('hex')}`,
    JSON.stringify([{ platform: 'linkedin', status: 'success', id: 'urn:li:share:1', postUrl: 'https://example.invalid/1' }]),
  ]);
  const dropTable = () => pool.query(`DROP TABLE IF EXISTS ${table}`).finally(() => pool.end());
  process.once('SIGTERM', () => dropTable().finally(() => process.exit(0)));
  const statement = { name: 'floor-read', text: `SELECT * FROM ${table} WHERE id = $1` };
  return async () => {
    const { rows } = await pool.query({ ...statement, values: [id] });
    return { status: 'success', ...rows[0] };
  };
}

async function sqliteAccept() {
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(join(mkdtempSync(join(tmpdir(), 'slk-floor-')), 'floor.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  db.exec(`
    CREATE TABLE posts (id TEXT PRIMARY KEY, profile_id TEXT NOT NULL, post TEXT NOT NULL, status TEXT NOT NULL,
      schedule_date TEXT, created_at TEXT NOT NULL);
    CREATE INDEX posts_profile_created ON posts (profile_id, created_at);
    CREATE TABLE post_platforms (post_id TEXT NOT NULL, platform TEXT NOT NULL, account_id TEXT NOT NULL,
      status TEXT NOT NULL, PRIMARY KEY (post_id, platform));
    CREATE INDEX post_platforms_profile ON post_platforms (account_id, platform);
    CREATE TABLE jobs (id TEXT PRIMARY KEY, post_id TEXT NOT NULL, run_at TEXT NOT NULL, state TEXT NOT NULL);
    CREATE INDEX jobs_due ON jobs (state, run_at);
    CREATE TABLE post_duplicate_bands (profile_id TEXT NOT NULL, platform TEXT NOT NULL, band BIGINT NOT NULL,
      effective_at TEXT NOT NULL, post_id TEXT NOT NULL, grams INTEGER NOT NULL,
      PRIMARY KEY (profile_id, platform, band, effective_at, post_id, grams)) WITHOUT ROWID;`);
  const lookup = db.prepare(`SELECT post_id FROM post_duplicate_bands WHERE profile_id = ? AND platform = 'linkedin'
    AND band IN (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) AND effective_at BETWEEN ? AND ? AND grams BETWEEN 102 AND 142 LIMIT 80`);
  const insertPost = db.prepare(`INSERT INTO posts VALUES (?, 'profile_1', ?, 'scheduled', ?, ?)`);
  const insertPlatform = db.prepare(`INSERT INTO post_platforms VALUES (?, 'linkedin', 'account_1', 'pending')`);
  const insertJob = db.prepare(`INSERT INTO jobs VALUES (?, ?, ?, 'queued')`);
  const insertBand = db.prepare(`INSERT INTO post_duplicate_bands VALUES ('profile_1', 'linkedin', ?, ?, ?, 120)`);
  // Random bands, as the service's are (hashes of the text's shingles).
  const band = () => randomBytes(6).readUIntBE(0, 6);
  const withBands = process.env.BANDS !== '0';
  const acceptOne = (text) => {
    const at = new Date(Date.now() + 7 * 86_400_000);
    const bands = withBands ? Array.from({ length: 10 }, band) : [];
    if (withBands) lookup.all('profile_1', ...bands, new Date(+at - 86_400_000).toISOString(), new Date(+at + 86_400_000).toISOString());
    // Time-ordered ids, as the service's, so each insert lands on the B-tree's last page.
    const id = `post_${Date.now().toString(16).padStart(12, '0')}${randomBytes(6).toString('hex')}`;
    insertPost.run(id, text, at.toISOString(), new Date().toISOString());
    insertPlatform.run(id);
    insertJob.run(`job_${id.slice(5)}`, id, at.toISOString());
    for (const value of bands) insertBand.run(value, at.toISOString(), id);
    return { status: 'scheduled', id, scheduleDate: at.toISOString() };
  };
  // Inside another transaction, better-sqlite3 runs a transaction function as a savepoint: one accept's failure
  // would undo only its own rows.
  const accept = db.transaction(acceptOne);
  const textOf = (body) => JSON.parse(body).post ?? '';
  if (process.env.BATCH !== '1') return async (body) => accept(textOf(body));
  // BATCH=1: the accepts that arrive in one turn of the event loop share one transaction (one commit's page writes).
  const acceptAll = db.transaction((texts) => texts.map((text) => accept(text)));
  let waiting = [];
  const flush = () => {
    const batch = waiting;
    waiting = [];
    acceptAll(batch.map((w) => w.text)).forEach((result, i) => batch[i].resolve(result));
  };
  return (body) =>
    new Promise((resolve) => {
      if (waiting.length === 0) setImmediate(flush);
      waiting.push({ text: textOf(body), resolve });
    });
}

const floors = { 'pg-read': pgRead, 'sqlite-accept': sqliteAccept };
if (!floors[floor]) throw new Error(`FLOOR must be one of ${Object.keys(floors).join(', ')}`);
const answer = await floors[floor]();

const server = createServer(async (req, res) => {
  const body = await readBody(req);
  const result = await answer(body);
  res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' }).end(JSON.stringify(result));
});
server.listen(port, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${server.address().port}`));
