/**
 * @module
 * The reads behind `GET /api/post/:id` and `GET /api/history` (issue 31): each one statement, a post (or a page of
 * them) joined with its platform rows, selecting only the columns an answer shows (post-answer.ts postRecord). On
 * PostgreSQL, where these reads are not kept in memory, that is one round trip instead of two (three with the
 * quota check of a post read). Where the API key's caller is not kept in memory either (PostgreSQL), the `…AsKey`
 * reads also name the caller in the same statement, so a read is one round trip in all.
 */
import type { Network } from '@social-link-kit/protocol';
import type { PostStatus } from '@social-link-kit/protocol/publishing/index.js';
import type { Row } from '../core/db/rows.js';
import type { SqlExecutor } from '../core/db/sql-driver.js';
import type { Plan } from '../core/db/storage-types.js';
import { answeredPostOf, platformOutcomeOf, type StoredPlatform } from './post-store.js';
import { QUOTA_COLUMNS, quotaColumnsOf, quotaMonth, quotaOfRow, quotaParams } from './post-quota.js';
import { callerOfRow, callerQuery } from '../accounts/store.js';
import type { Caller, KeyHashes } from '../accounts/caller-cache.js';

/** What a post's answer shows of the post row. */
export type AnsweredPost = ReturnType<typeof answeredPostOf>;
/** What it shows of each platform row. */
export type AnsweredPlatform = Pick<StoredPlatform, 'platform' | 'status' | 'prepared' | 'networkPostId' | 'postUrl' | 'pendingState' | 'error' | 'warnings' | 'firstComment'>;
export interface AnsweredPostRows {
  post: AnsweredPost;
  platforms: AnsweredPlatform[];
}

/** What `GET /api/history` filters on. */
export interface HistoryFilter {
  status?: PostStatus;
  since?: number;
  until?: number;
  autoRepostId?: string;
  type?: 'now' | 'schedule';
  limit: number;
}

const POST_COLUMNS = 'id, status, request, platforms, schedule_date, requires_approval, approved, paused, notes, auto_repost_id, retried, created_at';
/** A post without platform rows has one row of NULLs here (LEFT JOIN): `pp_platform` is null then. */
const PLATFORM_COLUMNS =
  'pp.platform AS pp_platform, pp.status AS pp_status, pp.prepared, pp.network_post_id, pp.post_url, pp.pending_state, pp.error, pp.warnings, pp.first_comment';

/** The profile's post with its platform rows, or null when the profile has no post with this id. */
export async function findAnsweredPost(db: SqlExecutor, profileId: string, id: string): Promise<AnsweredPostRows | null> {
  const rows = await db.all(
    `SELECT p.*, ${PLATFORM_COLUMNS} FROM (SELECT ${POST_COLUMNS} FROM posts WHERE id = ? AND profile_id = ?) p
     LEFT JOIN post_platforms pp ON pp.post_id = p.id ORDER BY pp.platform`,
    [id, profileId],
  );
  return grouped(rows)[0] ?? null;
}

/**
 * `findAnsweredPost` and the month's quota and count (post-quota.ts) in one statement, for `GET /api/post/:id`,
 * which checks the quota before it answers: the post's rows are joined to one row that always exists, so the quota
 * comes back when there is no such post too.
 */
export async function findAnsweredPostAndQuota(
  db: SqlExecutor,
  profileId: string,
  id: string,
  plan: Plan,
  now: number,
): Promise<{ quota: number; count: number; found: AnsweredPostRows | null }> {
  const rows = await db.all(
    `SELECT ${QUOTA_COLUMNS}, p.*, ${PLATFORM_COLUMNS} FROM (SELECT 1 AS one) o
     LEFT JOIN (SELECT ${POST_COLUMNS} FROM posts WHERE id = ? AND profile_id = ?) p ON 1 = 1
     LEFT JOIN post_platforms pp ON pp.post_id = p.id ORDER BY pp.platform`,
    [...quotaParams(profileId, now), id, profileId],
  );
  const found = rows[0]!.id === null || rows[0]!.id === undefined ? null : grouped(rows)[0]!;
  return { ...quotaOfRow(rows[0]!, plan), found };
}

/** A page of the profile's history, newest first, each post with its platform rows. */
export async function listAnsweredHistory(db: SqlExecutor, profileId: string, filter: HistoryFilter): Promise<AnsweredPostRows[]> {
  const { where, params } = historyWhere(filter);
  const rows = await db.all(
    `SELECT p.*, ${PLATFORM_COLUMNS}
     FROM (SELECT ${POST_COLUMNS} FROM posts WHERE profile_id = ? AND ${where} ORDER BY created_at DESC, id LIMIT ?) p
     LEFT JOIN post_platforms pp ON pp.post_id = p.id
     ORDER BY p.created_at DESC, p.id, pp.platform`,
    [profileId, ...params],
  );
  return grouped(rows);
}

/**
 * The caller of these key hashes (accounts/store.ts callerQuery) and, when it has a profile, what
 * `findAnsweredPostAndQuota` reads for that profile, in one statement. `caller` is null for an unknown key; its
 * profile null when the Profile-Key matches none (then nothing else is read). The post is read only through the
 * caller's profile: another profile's post is not found.
 */
export async function findAnsweredPostAsKey(
  db: SqlExecutor,
  key: KeyHashes,
  id: string,
  now: number,
): Promise<{ caller: Caller | null; quota: number; count: number; found: AnsweredPostRows | null }> {
  const caller = callerQuery(key.apiKey, key.profileKey);
  const rows = await db.all(
    `WITH c AS (${caller.sql})
     SELECT c.*, ${quotaColumnsOf('c.profile_id')}, p.*, ${PLATFORM_COLUMNS} FROM c
     LEFT JOIN (SELECT ${POST_COLUMNS}, profile_id AS post_profile_id FROM posts WHERE id = ?) p ON p.post_profile_id = c.profile_id
     LEFT JOIN post_platforms pp ON pp.post_id = p.id ORDER BY pp.platform`,
    [...caller.params, quotaMonth(now), id],
  );
  if (rows.length === 0) return { caller: null, quota: 0, count: 0, found: null };
  const named = callerOfRow(rows[0]!);
  if (!named.profile) return { caller: named, quota: 0, count: 0, found: null };
  const found = rows[0]!.id === null || rows[0]!.id === undefined ? null : grouped(rows)[0]!;
  return { caller: named, ...quotaOfRow(rows[0]!, named.account.plan), found };
}

/**
 * The caller of these key hashes and, when it has a profile, `listAnsweredHistory` of that profile, in one
 * statement (as `findAnsweredPostAsKey`).
 */
export async function listAnsweredHistoryAsKey(db: SqlExecutor, key: KeyHashes, filter: HistoryFilter): Promise<{ caller: Caller | null; page: AnsweredPostRows[] }> {
  const caller = callerQuery(key.apiKey, key.profileKey);
  const { where, params } = historyWhere(filter);
  // A caller without a profile (profile_id null) matches no post: one row of the caller alone.
  const rows = await db.all(
    `WITH c AS (${caller.sql}),
     p AS (SELECT ${POST_COLUMNS} FROM posts WHERE profile_id = (SELECT profile_id FROM c) AND ${where} ORDER BY created_at DESC, id LIMIT ?)
     SELECT c.*, p.*, ${PLATFORM_COLUMNS} FROM c
     LEFT JOIN p ON 1 = 1
     LEFT JOIN post_platforms pp ON pp.post_id = p.id
     ORDER BY p.created_at DESC, p.id, pp.platform`,
    [...caller.params, ...params],
  );
  if (rows.length === 0) return { caller: null, page: [] };
  const named = callerOfRow(rows[0]!);
  return { caller: named, page: named.profile && rows[0]!.id !== null && rows[0]!.id !== undefined ? grouped(rows) : [] };
}

/** The filter's conditions on `posts` (beside its profile), and their parameters with the limit last. */
function historyWhere(filter: HistoryFilter): { where: string; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  if (filter.status) {
    where.push('status = ?');
    params.push(filter.status);
  } else where.push("status <> 'deleted'");
  if (filter.since !== undefined) {
    where.push('created_at >= ?');
    params.push(filter.since);
  }
  if (filter.until !== undefined) {
    where.push('created_at <= ?');
    params.push(filter.until);
  }
  if (filter.autoRepostId) {
    where.push('auto_repost_id = ?');
    params.push(filter.autoRepostId);
  }
  if (filter.type) where.push(filter.type === 'schedule' ? 'schedule_date IS NOT NULL' : 'schedule_date IS NULL');
  params.push(filter.limit);
  return { where: where.join(' AND '), params };
}

/** Rows of the join (ordered by post) as posts with their platform rows. */
function grouped(rows: Row[]): AnsweredPostRows[] {
  const posts: AnsweredPostRows[] = [];
  let current: AnsweredPostRows | null = null;
  for (const row of rows) {
    if (current === null || current.post.id !== row.id) {
      current = { post: answeredPostOf(row), platforms: [] };
      posts.push(current);
    }
    if (row.pp_platform !== null && row.pp_platform !== undefined) current.platforms.push(toAnsweredPlatform(row));
  }
  return posts;
}

function toAnsweredPlatform(row: Row): AnsweredPlatform {
  return { platform: row.pp_platform as Network, status: row.pp_status as StoredPlatform['status'], ...platformOutcomeOf(row) };
}
