/**
 * Migrations 24 and 26 on a real database (SQLite, and PostgreSQL with TEST_DATABASE_URL): a database at version 23
 * with posts, their text bands of migration 17 and a row stored before 17 (no bands), or at version 25 with the
 * integer bands of migration 24 and no trigram counts, is migrated; the old bands are gone, the start's backfill gives
 * the new ones to every row a new post can still meet, once, and the near duplicates of those rows are found again
 * (those of rows outside the window are not, as before).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DUPLICATE_WINDOW_MS } from '../../src/publishing/duplicate-index.js';
import { PostStore } from '../../src/publishing/post-store.js';
import { nearDuplicateMatcher, normalizeForDuplicates } from '../../src/publishing/rules/near-duplicate.js';
import type { Storage } from '../../src/storage/storage.js';
import { postgresMigratedFrom, sqliteMigratedFrom } from '../support/migrated-from.js';

const HOUR = 3_600_000;
const T = Date.parse('2026-11-28T12:00:00Z');
const TEXTS = {
  post_soon: 'Our spring collection is finally here. Come by the shop this weekend and say hello to the team.',
  post_pre17: 'The winter market opens on Friday with forty stalls, hot cider and a choir from the old town.',
  post_gone: 'Last week we moved the whole warehouse across the river, and every order still left on time.',
};

/**
 * The content at version 23 or 25: three linkedin posts of one profile; two with the bands of that version (migration
 * 17's text ones, or 24's integers without a trigram count), one without.
 */
function seedAt(version: 23 | 25): string {
  const row = (id: keyof typeof TEXTS, at: number, banded: boolean) => {
    const key = normalizeForDuplicates(TEXTS[id]).replace(/'/g, "''");
    return `
    INSERT INTO posts (id, profile_id, status, request, platforms, schedule_date, created_at, updated_at) VALUES ('${id}', 'pr_1', 'scheduled', '{}', '["linkedin"]', ${at}, ${T - 72 * HOUR}, ${T - 72 * HOUR});
    INSERT INTO post_platforms (post_id, platform, status, text, duplicate_key, effective_at, profile_id, account_id) VALUES ('${id}', 'linkedin', 'queued', '', '${key}', ${at}, 'pr_1', 'acc_1');
    ${banded ? `INSERT INTO post_duplicate_bands (post_id, platform, profile_id, band, effective_at) VALUES ('${id}', 'linkedin', 'pr_1', ${version === 23 ? "'0:old.text.band'" : 4242}, ${at});` : ''}`;
  };
  return `
    INSERT INTO accounts (id, name, plan, domains, created_at) VALUES ('acc_1', 'A', 'business', '[]', ${T});
    INSERT INTO profiles (id, account_id, ref_id, title, is_primary, created_at) VALUES ('pr_1', 'acc_1', 'ref-1', 'P', 1, ${T});
    ${row('post_soon', T + 2 * HOUR, true)}
    ${row('post_pre17', T + 5 * HOUR, false)}
    ${row('post_gone', T - 60 * HOUR, true)}
  `;
}

async function checkMigrated(storage: Storage): Promise<void> {
  const count = async () => Number((await storage.driver.get('SELECT COUNT(*) AS n FROM post_duplicate_bands'))!.n);
  assert.equal(await count(), 0, "migration 17's text bands are gone");
  const store = new PostStore(storage.driver);
  assert.equal(await store.duplicates.backfill(T - 2 * DUPLICATE_WINDOW_MS), 2, 'the two rows a new post can still meet get bands');
  assert.equal(await count(), 20);
  assert.equal(await store.duplicates.backfill(T - 2 * DUPLICATE_WINDOW_MS), 0, 'the next start has nothing to do');
  const finds = async (id: keyof typeof TEXTS, at: number) => {
    const key = normalizeForDuplicates(TEXTS[id].replace('the', 'teh'));
    const rows = await store.duplicates.candidates({ profileId: 'pr_1', accountId: 'acc_1', platform: 'linkedin', at, windowMs: DUPLICATE_WINDOW_MS, duplicateKey: key, acrossAccount: false });
    return rows.some((row) => nearDuplicateMatcher(key)(row.duplicateKey));
  };
  assert.equal(await finds('post_soon', T), true, 'a banded row before the migration is found again');
  assert.equal(await finds('post_pre17', T), true, 'a row stored before migration 17 is found');
  assert.equal(await finds('post_gone', T - 59 * HOUR), false, 'a row no new post can meet is left without bands');
  // A reschedule moves the rows' bands: found at the new time, not the old one.
  await storage.driver.transaction((tx) => store.moveEffectiveAt(tx, 'post_soon', T + 50 * HOUR));
  assert.equal(await count(), 20, 'moved, not added');
  assert.equal(await finds('post_soon', T - 20 * HOUR), false);
  assert.equal(await finds('post_soon', T + 49 * HOUR), true);
}

for (const version of [23, 25] as const) {
  describe(`migration ${version + 1}: the near-duplicate bands rebuilt`, () => {
    it('SQLite', () => sqliteMigratedFrom(version, seedAt(version), checkMigrated));

    it('PostgreSQL', { skip: process.env.TEST_DATABASE_URL ? false : 'no TEST_DATABASE_URL' }, () => postgresMigratedFrom(version, seedAt(version), checkMigrated));
  });
}
