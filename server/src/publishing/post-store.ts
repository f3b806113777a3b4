/**
 * @module
 * The posts and their platform attempts in SQL (migration 6). A post row keeps the request as accepted; each
 * platform row records the attempt's progress: `prepared` (adapter state, safe to redo), `commit_started_at`
 * (written BEFORE the irreversible call), then the result. A platform row with a started commit and no result is
 * what a crash leaves: it goes to the adapter's `reconcile`, never straight to `commit`.
 */
import type { Network } from '@social-link-kit/protocol';
import type { PlatformStatus, PostStatus } from '@social-link-kit/protocol/publishing/index.js';
import type { FirstCommentResult, PostPlatformError, PostWarning } from '@social-link-kit/protocol/publishing/index.js';
import type { SqlDriver, SqlExecutor } from '../core/db/sql-driver.js';
import type { Row } from '../core/db/rows.js';
import { DuplicateIndex } from './duplicate-index.js';

export interface StoredPost {
  id: string;
  profileId: string;
  status: PostStatus;
  /** The validated request body, as accepted. */
  request: Record<string, unknown>;
  platforms: Network[];
  scheduleDate: number | null;
  requiresApproval: boolean;
  approved: boolean;
  paused: boolean;
  notes: string | null;
  idempotencyKey: string | null;
  autoRepostId: string | null;
  retried: boolean;
  createdAt: number;
  updatedAt: number;
  deletedAt: number | null;
  /** Stored copies of the post's images by origin URL (media protection), or null. */
  mediaCopies: Record<string, { name: string; contentType: string }> | null;
}

export interface StoredPlatform {
  postId: string;
  platform: Network;
  status: PlatformStatus;
  text: string;
  duplicateKey: string | null;
  effectiveAt: number;
  prepared: Record<string, unknown> | null;
  commitStartedAt: number | null;
  finishedAt: number | null;
  networkPostId: string | null;
  postUrl: string | null;
  pendingState: Record<string, unknown> | null;
  error: Omit<PostPlatformError, 'action' | 'status' | 'platform'> | null;
  warnings: PostWarning[] | null;
  firstComment: FirstCommentResult | null;
}

export type NewPost = Omit<StoredPost, 'updatedAt' | 'deletedAt' | 'retried'>;
export type NewPlatform = Pick<StoredPlatform, 'postId' | 'platform' | 'status' | 'text' | 'duplicateKey' | 'effectiveAt' | 'error' | 'warnings'>;

/** A new platform row's outcome columns: nothing has been sent yet. */
const UNSENT = { prepared: null, commitStartedAt: null, networkPostId: null, postUrl: null, pendingState: null, firstComment: null } as const;
/** A row refused at the create is finished then; the others when their attempt ends. */
const finishedAtOf = (platform: NewPlatform, post: NewPost): number | null => (platform.status === 'error' ? post.createdAt : null);

const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));
const parse = <T>(value: unknown): T | null => (typeof value === 'string' ? (JSON.parse(value) as T) : null);
const time = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

/** The post row's columns an answer shows (post-reads.ts reads only these). */
export function answeredPostOf(row: Row): Pick<StoredPost, 'id' | 'status' | 'request' | 'platforms' | 'scheduleDate' | 'requiresApproval' | 'approved' | 'paused' | 'notes' | 'autoRepostId' | 'retried' | 'createdAt'> {
  return {
    id: row.id as string,
    status: row.status as PostStatus,
    request: parse<Record<string, unknown>>(row.request) ?? {},
    platforms: parse<Network[]>(row.platforms) ?? [],
    scheduleDate: time(row.schedule_date),
    requiresApproval: Number(row.requires_approval) === 1,
    approved: Number(row.approved) === 1,
    paused: Number(row.paused) === 1,
    notes: (row.notes as string | null) ?? null,
    autoRepostId: (row.auto_repost_id as string | null) ?? null,
    retried: Number(row.retried) === 1,
    createdAt: Number(row.created_at),
  };
}

function toPost(row: Row): StoredPost {
  return {
    ...answeredPostOf(row),
    profileId: row.profile_id as string,
    idempotencyKey: (row.idempotency_key as string | null) ?? null,
    updatedAt: Number(row.updated_at),
    deletedAt: time(row.deleted_at),
    mediaCopies: parse(row.media_copies),
  };
}

/** A platform row's outcome columns, as an answer shows them (post-reads.ts reads only these). */
export function platformOutcomeOf(row: Row): Pick<StoredPlatform, 'prepared' | 'networkPostId' | 'postUrl' | 'pendingState' | 'error' | 'warnings' | 'firstComment'> {
  return {
    prepared: parse(row.prepared),
    networkPostId: (row.network_post_id as string | null) ?? null,
    postUrl: (row.post_url as string | null) ?? null,
    pendingState: parse(row.pending_state),
    error: parse(row.error),
    warnings: parse(row.warnings),
    firstComment: parse(row.first_comment),
  };
}

function toPlatform(row: Row): StoredPlatform {
  return {
    postId: row.post_id as string,
    platform: row.platform as Network,
    status: row.status as PlatformStatus,
    text: row.text as string,
    duplicateKey: (row.duplicate_key as string | null) ?? null,
    effectiveAt: Number(row.effective_at),
    commitStartedAt: time(row.commit_started_at),
    finishedAt: time(row.finished_at),
    ...platformOutcomeOf(row),
  };
}

/** True for a unique-index violation on either backend. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

export class PostStore {
  readonly db: SqlDriver;
  /** The duplicate rule's index over these rows (its bands are written and moved with them). */
  readonly duplicates: DuplicateIndex;

  constructor(db: SqlDriver, duplicates = new DuplicateIndex(db)) {
    this.db = db;
    this.duplicates = duplicates;
  }

  /** Stores a post and its platform rows; answers the rows as stored, in the order a read gives them (by network). */
  async insertPost(tx: SqlExecutor, post: NewPost, platforms: NewPlatform[]): Promise<StoredPlatform[]> {
    await tx.run(
      `INSERT INTO posts (id, profile_id, status, request, platforms, schedule_date, requires_approval, approved, paused, notes,
         idempotency_key, auto_repost_id, created_at, updated_at, media_copies)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        post.id,
        post.profileId,
        post.status,
        JSON.stringify(post.request),
        JSON.stringify(post.platforms),
        post.scheduleDate,
        post.requiresApproval ? 1 : 0,
        post.approved ? 1 : 0,
        post.paused ? 1 : 0,
        post.notes,
        post.idempotencyKey,
        post.autoRepostId,
        post.createdAt,
        post.createdAt,
        json(post.mediaCopies),
      ],
    );
    for (const platform of platforms) {
      await tx.run(
        `INSERT INTO post_platforms (post_id, platform, status, text, duplicate_key, effective_at, error, warnings, finished_at, profile_id, account_id)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, (SELECT account_id FROM profiles WHERE id = ?))`,
        [
          platform.postId,
          platform.platform,
          platform.status,
          platform.text,
          platform.duplicateKey,
          platform.effectiveAt,
          json(platform.error),
          json(platform.warnings),
          finishedAtOf(platform, post),
          post.profileId,
          post.profileId,
        ],
      );
      await this.duplicates.insertBands(tx, platform.postId, platform.platform, post.profileId, platform.duplicateKey, platform.effectiveAt);
    }
    return platforms
      .map((platform) => ({ ...platform, ...UNSENT, finishedAt: finishedAtOf(platform, post) }))
      .sort((a, b) => (a.platform < b.platform ? -1 : 1));
  }

  async findPost(id: string, executor: SqlExecutor = this.db): Promise<StoredPost | null> {
    const row = await executor.get('SELECT * FROM posts WHERE id = ?', [id]);
    return row ? toPost(row) : null;
  }

  /**
   * Reads the post and locks its row until the transaction ends (PostgreSQL; SQLite's write transaction holds the file), so the
   * result steps of a post's platforms run one after another and the last one sees every other platform's result.
   */
  async lockPost(tx: SqlExecutor, id: string): Promise<StoredPost | null> {
    const row = await tx.get(`SELECT * FROM posts WHERE id = ?${this.db.dialect.forUpdate}`, [id]);
    return row ? toPost(row) : null;
  }

  async findPostOfProfile(profileId: string, id: string): Promise<StoredPost | null> {
    const row = await this.db.get('SELECT * FROM posts WHERE id = ? AND profile_id = ?', [id, profileId]);
    return row ? toPost(row) : null;
  }

  async findByIdempotencyKey(profileId: string, key: string): Promise<StoredPost | null> {
    const row = await this.db.get('SELECT * FROM posts WHERE profile_id = ? AND idempotency_key = ?', [profileId, key]);
    return row ? toPost(row) : null;
  }

  async listPlatforms(postId: string, executor: SqlExecutor = this.db): Promise<StoredPlatform[]> {
    const rows = await executor.all('SELECT * FROM post_platforms WHERE post_id = ? ORDER BY platform', [postId]);
    return rows.map(toPlatform);
  }

  async findPlatform(postId: string, platform: Network, executor: SqlExecutor = this.db): Promise<StoredPlatform | null> {
    const row = await executor.get('SELECT * FROM post_platforms WHERE post_id = ? AND platform = ?', [postId, platform]);
    return row ? toPlatform(row) : null;
  }

  /** The requests of the profile's newest posts on `platform` (networks/module.ts `StoredPostRequests`). */
  async recentRequestsOn(profileId: string, platform: Network, limit: number): Promise<Record<string, unknown>[]> {
    const rows = await this.db.all(
      `SELECT p.request FROM posts p JOIN post_platforms pp ON pp.post_id = p.id
       WHERE p.profile_id = ? AND pp.platform = ? ORDER BY p.created_at DESC LIMIT ?`,
      [profileId, platform, limit],
    );
    return rows.map((row) => parse<Record<string, unknown>>(row.request) ?? {});
  }

  async listSeries(profileId: string, autoRepostId: string): Promise<StoredPost[]> {
    const rows = await this.db.all('SELECT * FROM posts WHERE profile_id = ? AND auto_repost_id = ? ORDER BY schedule_date, created_at', [profileId, autoRepostId]);
    return rows.map(toPost);
  }

  /** Changes the post's status only when it is still `from` (one of them); false when something else changed it first. */
  async moveStatus(id: string, from: readonly PostStatus[], to: PostStatus, now: number, executor: SqlExecutor = this.db, extra: Record<string, unknown> = {}): Promise<boolean> {
    const sets = ['status = ?', 'updated_at = ?', ...Object.keys(extra).map((column) => `${column} = ?`)];
    const placeholders = from.map(() => '?').join(', ');
    return (
      (await executor.run(`UPDATE posts SET ${sets.join(', ')} WHERE id = ? AND status IN (${placeholders})`, [
        to,
        now,
        ...Object.values(extra),
        id,
        ...from,
      ])) === 1
    );
  }

  async updatePostFields(id: string, fields: Record<string, unknown>, now: number, executor: SqlExecutor = this.db): Promise<void> {
    const columns = Object.keys(fields);
    await executor.run(`UPDATE posts SET ${[...columns.map((c) => `${c} = ?`), 'updated_at = ?'].join(', ')} WHERE id = ?`, [...Object.values(fields), now, id]);
  }

  /**
   * Marks the platform's first comment as queued, once: false when it already has a state (queued, started, done or
   * failed), so a result recorded twice (a reconcile beside a late answer) never queues a second comment.
   */
  async queueFirstCommentOnce(postId: string, platform: Network, executor: SqlExecutor = this.db): Promise<boolean> {
    const changed = await executor.run(`UPDATE post_platforms SET first_comment = ? WHERE post_id = ? AND platform = ? AND first_comment IS NULL`, [JSON.stringify({ status: 'pending' }), postId, platform]);
    return changed === 1;
  }

  async recordFirstComment(postId: string, platform: Network, result: FirstCommentResult, executor: SqlExecutor = this.db): Promise<void> {
    await executor.run(`UPDATE post_platforms SET first_comment = ? WHERE post_id = ? AND platform = ?`, [JSON.stringify(result), postId, platform]);
  }

  async savePrepared(postId: string, platform: Network, prepared: Record<string, unknown>): Promise<void> {
    await this.db.run(`UPDATE post_platforms SET prepared = ?, status = 'processing' WHERE post_id = ? AND platform = ? AND finished_at IS NULL`, [
      JSON.stringify(prepared),
      postId,
      platform,
    ]);
  }

  /**
   * The prepared state and "commit started" in ONE write, just before the irreversible call: one durable commit
   * (an fsync on SQLite) instead of two. A crash before it redoes the idempotent prepare; after it, reconcile.
   * False when another worker started (or finished) the commit first.
   */
  async savePreparedAndStartCommit(postId: string, platform: Network, prepared: Record<string, unknown>, now: number, executor: SqlExecutor = this.db): Promise<boolean> {
    return (
      (await executor.run(
        `UPDATE post_platforms SET prepared = ?, status = 'processing', commit_started_at = ?
         WHERE post_id = ? AND platform = ? AND commit_started_at IS NULL AND finished_at IS NULL`,
        [JSON.stringify(prepared), now, postId, platform],
      )) === 1
    );
  }

  /** Whether another post already recorded this network post id (a thread's record starts with its first part's id). */
  async isNetworkPostClaimed(platform: Network, networkPostId: string, exceptPostId: string): Promise<boolean> {
    const row = await this.db.get(
      `SELECT 1 AS hit FROM post_platforms WHERE platform = ? AND post_id <> ? AND (network_post_id = ? OR network_post_id LIKE ?) LIMIT 1`,
      [platform, exceptPostId, networkPostId, `${networkPostId.replace(/[%_]/g, '')},%`],
    );
    return row !== undefined && row !== null;
  }

  async markCommitStarted(postId: string, platform: Network, now: number): Promise<boolean> {
    return (
      (await this.db.run(
        `UPDATE post_platforms SET commit_started_at = ? WHERE post_id = ? AND platform = ? AND commit_started_at IS NULL AND finished_at IS NULL`,
        [now, postId, platform],
      )) === 1
    );
  }

  async recordSuccess(postId: string, platform: Network, result: { id: string; postUrl: string; warnings?: PostWarning[] }, now: number, executor: SqlExecutor = this.db): Promise<void> {
    await executor.run(
      `UPDATE post_platforms SET status = 'success', network_post_id = ?, post_url = ?, warnings = COALESCE(?, warnings), pending_state = NULL, error = NULL, finished_at = ?
       WHERE post_id = ? AND platform = ?`,
      [result.id, result.postUrl, json(result.warnings?.length ? result.warnings : null), now, postId, platform],
    );
  }

  /** Compare-and-set: a `pending` platform becomes `success` once (a network callback and a status poll may race). */
  async resolvePending(postId: string, platform: Network, result: { id: string; postUrl: string; warnings?: PostWarning[] }, now: number, executor: SqlExecutor = this.db): Promise<boolean> {
    const changed = await executor.run(
      `UPDATE post_platforms SET status = 'success', network_post_id = ?, post_url = ?, warnings = COALESCE(?, warnings), pending_state = NULL, error = NULL, finished_at = ?
       WHERE post_id = ? AND platform = ? AND status = 'pending'`,
      [result.id, result.postUrl, json(result.warnings?.length ? result.warnings : null), now, postId, platform],
    );
    return changed === 1;
  }

  /** The `pending` row on `platform` whose pending state holds `field: value` (a network's callback names its post so). */
  async findPendingBy(platform: Network, field: string, value: string): Promise<{ postId: string; state: Record<string, unknown> } | null> {
    const pattern = `%${JSON.stringify({ [field]: value }).slice(1, -1).replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
    const row = await this.db.get(`SELECT post_id, pending_state FROM post_platforms WHERE platform = ? AND status = 'pending' AND pending_state LIKE ? ESCAPE '\\'`, [platform, pattern]);
    if (!row) return null;
    const state = JSON.parse(String(row.pending_state)) as Record<string, unknown>;
    return state[field] === value ? { postId: String(row.post_id), state } : null;
  }

  async recordPending(postId: string, platform: Network, state: Record<string, unknown>, executor: SqlExecutor = this.db): Promise<void> {
    await executor.run(`UPDATE post_platforms SET status = 'pending', pending_state = ? WHERE post_id = ? AND platform = ?`, [JSON.stringify(state), postId, platform]);
  }

  async recordError(postId: string, platform: Network, error: NonNullable<StoredPlatform['error']>, now: number, executor: SqlExecutor = this.db): Promise<void> {
    await executor.run(`UPDATE post_platforms SET status = 'error', error = ?, finished_at = ? WHERE post_id = ? AND platform = ?`, [
      JSON.stringify(error),
      now,
      postId,
      platform,
    ]);
  }

  async markPlatformDeleted(postId: string, platform: Network): Promise<void> {
    await this.db.run(`UPDATE post_platforms SET status = 'deleted' WHERE post_id = ? AND platform = ?`, [postId, platform]);
  }

  /** Puts failed platforms back in the queue (retry): their earlier attempt is forgotten. */
  async requeueFailed(tx: SqlExecutor, postId: string): Promise<Network[]> {
    const rows = await tx.all(`SELECT platform FROM post_platforms WHERE post_id = ? AND status = 'error'`, [postId]);
    await tx.run(
      `UPDATE post_platforms SET status = 'queued', error = NULL, prepared = NULL, commit_started_at = NULL, finished_at = NULL
       WHERE post_id = ? AND status = 'error'`,
      [postId],
    );
    return rows.map((row) => row.platform as Network);
  }

  /** A rescheduled post's rows move in time, and so do their duplicate bands. */
  async moveEffectiveAt(tx: SqlExecutor, postId: string, effectiveAt: number): Promise<void> {
    const rows = await tx.all('SELECT platform, profile_id, duplicate_key, effective_at FROM post_platforms WHERE post_id = ?', [postId]);
    await tx.run('UPDATE post_platforms SET effective_at = ? WHERE post_id = ?', [effectiveAt, postId]);
    const banded = rows.map((row) => ({
      postId,
      platform: row.platform as string,
      profileId: (row.profile_id as string | null) ?? null,
      duplicateKey: (row.duplicate_key as string | null) ?? null,
      effectiveAt: Number(row.effective_at),
    }));
    await this.duplicates.moveBands(tx, banded, effectiveAt);
  }
}
