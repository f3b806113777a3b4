/**
 * Migration 25 on a real database (SQLite, and PostgreSQL with TEST_DATABASE_URL): a database at version 24 with
 * posts with and without an idempotency key and a series, and one post's rows on twitter and linkedin of another
 * profile of the account, is migrated. The three indexes become partial, and each lookup they serve still finds its
 * rows and still uses its index (EXPLAIN): the idempotency key (and its uniqueness), the series, and twitter's
 * account-wide duplicate key; linkedin's rule stays per profile.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ACCOUNT_WIDE_NETWORKS, DUPLICATE_WINDOW_MS } from '../../src/publishing/duplicate-index.js';
import { isUniqueViolation, PostStore } from '../../src/publishing/post-store.js';
import { normalizeForDuplicates } from '../../src/publishing/rules/near-duplicate.js';
import type { Storage } from '../../src/storage/storage.js';
import { postgresMigratedFrom, sqliteMigratedFrom } from '../support/migrated-from.js';

const BEFORE = 24;
const HOUR = 3_600_000;
const T = Date.parse('2026-11-28T12:00:00Z');
const KEY = normalizeForDuplicates('Doors open at nine tomorrow for the whole winter market, see you there.');

function seedAtVersion24(): string {
  const post = (id: string, profile: string, key: string | null, series: string | null, platforms: string) =>
    `INSERT INTO posts (id, profile_id, status, request, platforms, schedule_date, idempotency_key, auto_repost_id, created_at, updated_at)
     VALUES ('${id}', '${profile}', 'scheduled', '{}', '${platforms}', ${T + HOUR}, ${key ? `'${key}'` : 'NULL'}, ${series ? `'${series}'` : 'NULL'}, ${T}, ${T});`;
  const row = (id: string, platform: string) =>
    `INSERT INTO post_platforms (post_id, platform, status, text, duplicate_key, effective_at, profile_id, account_id) VALUES ('${id}', '${platform}', 'queued', '', '${KEY}', ${T + HOUR}, 'pr_2', 'acc_1');`;
  return `
    INSERT INTO accounts (id, name, plan, domains, created_at) VALUES ('acc_1', 'A', 'business', '[]', ${T});
    INSERT INTO profiles (id, account_id, ref_id, title, is_primary, created_at) VALUES ('pr_1', 'acc_1', 'ref-1', 'P', 1, ${T});
    INSERT INTO profiles (id, account_id, ref_id, title, is_primary, created_at) VALUES ('pr_2', 'acc_1', 'ref-2', 'Q', 0, ${T});
    ${post('post_keyed', 'pr_1', 'key-1', null, '["linkedin"]')}
    ${post('post_plain_1', 'pr_1', null, null, '["linkedin"]')}
    ${post('post_plain_2', 'pr_1', null, null, '["linkedin"]')}
    ${post('post_series_1', 'pr_1', null, 'ar_1', '["linkedin"]')}
    ${post('post_series_2', 'pr_1', null, 'ar_1', '["linkedin"]')}
    ${post('post_other', 'pr_2', null, null, '["twitter","linkedin"]')}
    ${row('post_other', 'twitter')}
    ${row('post_other', 'linkedin')}
  `;
}

/** The plan of `sql` as text; on PostgreSQL with sequential scans off, since these tables hold a few rows. */
async function planOf(storage: Storage, sql: string, params: unknown[]): Promise<string> {
  const db = storage.driver;
  if (db.kind === 'sqlite') return (await db.all(`EXPLAIN QUERY PLAN ${sql}`, params as never)).map((row) => row.detail).join('\n');
  return db.transaction(async (tx) => {
    await tx.run('SET LOCAL enable_seqscan = off');
    return (await tx.all(`EXPLAIN ${sql}`, params as never)).map((row) => row['QUERY PLAN']).join('\n');
  });
}

async function checkMigrated(storage: Storage): Promise<void> {
  const db = storage.driver;
  const store = new PostStore(db);
  assert.equal((await store.findByIdempotencyKey('pr_1', 'key-1'))?.id, 'post_keyed');
  await assert.rejects(
    db.run(`INSERT INTO posts (id, profile_id, status, request, platforms, idempotency_key, created_at, updated_at) VALUES ('post_twin', 'pr_1', 'scheduled', '{}', '[]', 'key-1', ${T}, ${T})`),
    (error) => isUniqueViolation(error),
    'a second post with the same key is refused',
  );
  await db.run(`INSERT INTO posts (id, profile_id, status, request, platforms, created_at, updated_at) VALUES ('post_plain_3', 'pr_1', 'scheduled', '{}', '[]', ${T}, ${T})`);
  assert.deepEqual((await store.listSeries('pr_1', 'ar_1')).map((post) => post.id).sort(), ['post_series_1', 'post_series_2']);

  const lookup = (platform: 'twitter' | 'linkedin', acrossAccount: boolean) =>
    store.duplicates.candidates({ profileId: 'pr_1', accountId: 'acc_1', platform, at: T, windowMs: DUPLICATE_WINDOW_MS, duplicateKey: KEY, acrossAccount });
  assert.deepEqual(await lookup('twitter', true), [{ duplicateKey: KEY, sameProfile: true }], "twitter: another profile's post of the account is a duplicate");
  assert.deepEqual(await lookup('linkedin', false), [], "linkedin: another profile's post is not");

  const definitions =
    db.kind === 'sqlite'
      ? await db.all(`SELECT name, sql AS definition FROM sqlite_master WHERE name IN ('post_platforms_account_key', 'posts_idempotency', 'posts_auto_repost')`)
      : await db.all(`SELECT indexname AS name, indexdef AS definition FROM pg_indexes WHERE indexname IN ('post_platforms_account_key', 'posts_idempotency', 'posts_auto_repost')`);
  assert.equal(definitions.length, 3);
  for (const { name, definition } of definitions) assert.match(String(definition), /WHERE/i, `${String(name)} is partial`);

  // Each lookup still uses its index: the statements as post-store.ts and duplicate-index.ts write them.
  assert.match(await planOf(storage, 'SELECT * FROM posts WHERE profile_id = ? AND idempotency_key = ?', ['pr_1', 'key-1']), /posts_idempotency/);
  assert.match(await planOf(storage, 'SELECT * FROM posts WHERE profile_id = ? AND auto_repost_id = ? ORDER BY schedule_date, created_at', ['pr_1', 'ar_1']), /posts_auto_repost|posts_profile_created/);
  assert.deepEqual(ACCOUNT_WIDE_NETWORKS, ['twitter'], 'a network that becomes account-wide needs the index widened (a migration)');
  for (const network of ACCOUNT_WIDE_NETWORKS) {
    const plan = await planOf(
      storage,
      `SELECT 1 FROM post_platforms pp JOIN posts p ON p.id = pp.post_id
       WHERE pp.account_id = ? AND pp.platform = ? AND pp.platform = '${network}' AND pp.duplicate_key = ? AND pp.effective_at >= ? AND pp.effective_at <= ? AND p.status <> 'deleted' LIMIT 1`,
      ['acc_1', network, KEY, T - DUPLICATE_WINDOW_MS, T + DUPLICATE_WINDOW_MS],
    );
    assert.match(plan, /post_platforms_account_key/, plan);
  }
}

describe('migration 25: partial indexes for the account-wide duplicate key, idempotency keys and series', () => {
  it('SQLite', () => sqliteMigratedFrom(BEFORE, seedAtVersion24(), checkMigrated));

  it('PostgreSQL', { skip: process.env.TEST_DATABASE_URL ? false : 'no TEST_DATABASE_URL' }, () => postgresMigratedFrom(BEFORE, seedAtVersion24(), checkMigrated));
});
