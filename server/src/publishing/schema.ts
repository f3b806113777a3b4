/**
 * @module
 * Migration 6: the publishing tables. `posts` holds the request as accepted; `post_platforms` one row per network
 * with the attempt's progress (prepared state, `commit_started_at` before the irreversible call, the result after);
 * `jobs` is the one lease-claim table every background step runs from (a due post is a row, not a timer).
 * Idempotency keys are a unique index, so even simultaneous requests with one key create one post.
 */
import type { SqlDialect } from '../core/db/sql-dialect.js';
import { mediaTables } from './media/schema.js';

export function publishingMigration(dialect: SqlDialect): string {
  const time = dialect.timeType;
  return `
  CREATE TABLE posts (
    id TEXT PRIMARY KEY,
    profile_id TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
    status TEXT NOT NULL,
    request TEXT NOT NULL,
    platforms TEXT NOT NULL,
    schedule_date ${time},
    requires_approval INTEGER NOT NULL DEFAULT 0,
    approved INTEGER NOT NULL DEFAULT 0,
    paused INTEGER NOT NULL DEFAULT 0,
    notes TEXT,
    idempotency_key TEXT,
    auto_repost_id TEXT,
    retried INTEGER NOT NULL DEFAULT 0,
    created_at ${time} NOT NULL,
    updated_at ${time} NOT NULL,
    deleted_at ${time}
  );
  CREATE UNIQUE INDEX posts_idempotency ON posts(profile_id, idempotency_key);
  CREATE INDEX posts_profile_created ON posts(profile_id, created_at);
  CREATE INDEX posts_auto_repost ON posts(auto_repost_id);
  CREATE TABLE post_platforms (
    post_id TEXT NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
    platform TEXT NOT NULL,
    status TEXT NOT NULL,
    text TEXT NOT NULL,
    duplicate_key TEXT,
    effective_at ${time} NOT NULL,
    prepared TEXT,
    commit_started_at ${time},
    finished_at ${time},
    network_post_id TEXT,
    post_url TEXT,
    pending_state TEXT,
    error TEXT,
    warnings TEXT,
    PRIMARY KEY (post_id, platform)
  );
  CREATE INDEX post_platforms_duplicates ON post_platforms(platform, effective_at);
  CREATE TABLE jobs (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    subject TEXT NOT NULL,
    payload TEXT NOT NULL,
    run_at ${time} NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    lease_token TEXT,
    lease_until ${time},
    created_at ${time} NOT NULL,
    done_at ${time},
    failed_at ${time},
    last_error TEXT
  );
  CREATE INDEX jobs_due ON jobs(run_at) WHERE done_at IS NULL AND failed_at IS NULL;
  CREATE INDEX jobs_subject ON jobs(subject);
  CREATE TABLE post_counts (
    profile_id TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
    month TEXT NOT NULL,
    count INTEGER NOT NULL,
    PRIMARY KEY (profile_id, month)
  );
  CREATE TABLE post_quotas (
    profile_id TEXT PRIMARY KEY REFERENCES profiles(id) ON DELETE CASCADE,
    monthly_post_quota INTEGER NOT NULL
  );
  CREATE TABLE short_links (
    code TEXT PRIMARY KEY,
    url TEXT NOT NULL,
    profile_id TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
    created_at ${time} NOT NULL
  );
  ${mediaTables(dialect)}
  `;
}

/**
 * Migration 17: the duplicate rule (137) found through indexes, not by reading every post of the window. Each
 * platform row carries its profile and account (they never change), so exact duplicates are one index lookup
 * (per profile, or per account for networks that refuse duplicates account-wide); near duplicates are found
 * through `post_duplicate_bands` (the MinHash band keys of the row's normalised text, rules/near-duplicate.ts),
 * then confirmed by the similarity test. Bands are kept only while a new post can meet their row (pruned after two
 * days); rows of earlier versions that still can get their bands at start (PostStore).
 */
export function duplicateIndexMigration(dialect: SqlDialect): string {
  return `
  ALTER TABLE post_platforms ADD COLUMN profile_id TEXT;
  ALTER TABLE post_platforms ADD COLUMN account_id TEXT;
  UPDATE post_platforms SET
    profile_id = (SELECT p.profile_id FROM posts p WHERE p.id = post_platforms.post_id),
    account_id = (SELECT pr.account_id FROM posts p JOIN profiles pr ON pr.id = p.profile_id WHERE p.id = post_platforms.post_id);
  CREATE INDEX post_platforms_profile_key ON post_platforms(profile_id, platform, duplicate_key, effective_at);
  CREATE INDEX post_platforms_account_key ON post_platforms(account_id, platform, duplicate_key, effective_at);
  CREATE TABLE post_duplicate_bands (
    post_id TEXT NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
    platform TEXT NOT NULL,
    profile_id TEXT NOT NULL,
    band TEXT NOT NULL,
    effective_at ${dialect.timeType} NOT NULL,
    PRIMARY KEY (post_id, platform, band)
  );
  CREATE INDEX post_duplicate_bands_lookup ON post_duplicate_bands(profile_id, platform, band, effective_at);
  CREATE INDEX post_duplicate_bands_time ON post_duplicate_bands(effective_at);
  `;
}

/**
 * Migration 24: the near-duplicate bands in one B-tree that serves the lookup (issue 31). The accept wrote 16 rows
 * into a table with three B-trees (the rows, the (post, band) key, the lookup index) and a time index; now 10 rows
 * (rules/near-duplicate.ts NEAR_DUPLICATE_BANDS), keyed by what the lookup asks (profile, network, band, time) and
 * the post, without a rowid on SQLite and with no other index: the prune reads the table (it holds about two days
 * of posts plus the scheduled ones) and a rescheduled post's rows are found by their key. No foreign key either (a
 * post's rows are found through its platform row, never the other way; posts are never deleted, only marked).
 * Bands are 53-bit integers now, which SQL cannot compute from the old text ones: the old rows go, and
 * `post_duplicate_bands_backfill` asks the next start to give the bands to every row a new post can still meet.
 */
export function duplicateBandsRebuildMigration(dialect: SqlDialect): string {
  return `
  DROP TABLE post_duplicate_bands;
  CREATE TABLE post_duplicate_bands (
    profile_id TEXT NOT NULL,
    platform TEXT NOT NULL,
    band BIGINT NOT NULL,
    effective_at ${dialect.timeType} NOT NULL,
    post_id TEXT NOT NULL,
    PRIMARY KEY (profile_id, platform, band, effective_at, post_id)
  )${dialect.withoutRowid};
  CREATE TABLE post_duplicate_bands_backfill (pending INTEGER NOT NULL);
  INSERT INTO post_duplicate_bands_backfill (pending) VALUES (1);
  `;
}

/**
 * Migration 25: three indexes of the posts tables hold only the rows they are read for (issue 31), so an accept
 * writes fewer B-trees and dirties fewer pages at its commit:
 * - `post_platforms_account_key` only the rows of the networks whose duplicate rule spans the account (twitter:
 *   duplicate-index.ts ACCOUNT_WIDE_NETWORKS, whose lookups name the network as a constant so SQLite uses it);
 * - `posts_idempotency` and `posts_auto_repost` only the posts that have a key or a series (each is read by
 *   equality, which no NULL meets; a unique index never counted two NULLs as equal either).
 * A network that becomes account-wide needs a migration that widens the first.
 */
export function partialPostIndexesMigration(): string {
  return `
  DROP INDEX post_platforms_account_key;
  CREATE INDEX post_platforms_account_key ON post_platforms(account_id, platform, duplicate_key, effective_at) WHERE platform = 'twitter';
  DROP INDEX posts_idempotency;
  CREATE UNIQUE INDEX posts_idempotency ON posts(profile_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
  DROP INDEX posts_auto_repost;
  CREATE INDEX posts_auto_repost ON posts(auto_repost_id) WHERE auto_repost_id IS NOT NULL;
  `;
}

/**
 * Migration 26: each band row carries its text's number of distinct trigrams (`grams`, rules/near-duplicate.ts
 * `trigramCount`), as the last column of its key so the lookup reads it from the index on either database. Two texts
 * can be near only if these numbers are within the threshold of each other, so the lookup skips the band rows of
 * texts far longer or shorter before it reads any platform row (issue 31: one heavy profile read about 64 candidates'
 * rows per lookup). The old rows go and the next start gives every row a new post can still meet its bands again,
 * as after migration 24.
 */
export function duplicateBandSizesMigration(dialect: SqlDialect): string {
  return `
  DROP TABLE post_duplicate_bands;
  CREATE TABLE post_duplicate_bands (
    profile_id TEXT NOT NULL,
    platform TEXT NOT NULL,
    band BIGINT NOT NULL,
    effective_at ${dialect.timeType} NOT NULL,
    post_id TEXT NOT NULL,
    grams INTEGER NOT NULL,
    PRIMARY KEY (profile_id, platform, band, effective_at, post_id, grams)
  )${dialect.withoutRowid};
  DELETE FROM post_duplicate_bands_backfill;
  INSERT INTO post_duplicate_bands_backfill (pending) VALUES (1);
  `;
}
