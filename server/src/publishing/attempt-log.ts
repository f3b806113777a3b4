/**
 * @module
 * The per-post timeline (issue 30, `GET /api/post/:id/attempts`): one row per attempt of a platform's job (publish,
 * status check, first comment), written when the attempt ends, with what started it, the network's code and
 * message, when it runs again and, after an interrupted commit, the reconcile verdict. It wraps the engine's job
 * runs (worker and inline alike): it reads the post and platform row once before the run and hands them to it (the
 * attempt decides on that read, taken the moment it starts: issue 31, one read instead of two), and the row after it
 * from the result's transaction when that wrote it. The engine itself only reports the verdict (`onReconcile`). A
 * process killed mid-attempt leaves no row for it; the next attempt shows `reconcile`.
 */
import type { Network } from '@social-link-kit/protocol';
import type { PostAttempt } from '@social-link-kit/protocol/publishing/index.js';
import { iso, type Clock } from '../core/clock.js';
import type { SqlDriver, SqlExecutor } from '../core/db/sql-driver.js';
import type { Job } from '../core/jobs/job-store.js';
import type { JobOutcome } from '../core/jobs/job-worker.js';
import { newId } from '../core/tokens.js';
import type { PostStore, StoredPlatform, StoredPost } from './post-store.js';

export type AttemptKind = 'publish' | 'confirm' | 'first-comment';
export type ReconcileVerdict = NonNullable<PostAttempt['reconcile']>;
/** The post and platform row as read when an attempt starts. */
export interface AttemptRead {
  post: StoredPost;
  row: StoredPlatform;
}

export class AttemptLog {
  readonly #db: SqlDriver;
  readonly #store: PostStore;
  readonly #clock: Clock;
  /** Verdicts reported by the engine during a run, by post and platform (one job of a pair runs at a time). */
  readonly #verdicts = new Map<string, ReconcileVerdict>();
  /** The attempts running now, by job id: what their row says besides the result, and whether it was written. */
  readonly #running = new Map<string, { kind: AttemptKind; at: number; trigger: PostAttempt['trigger']; written: boolean }>();

  constructor(db: SqlDriver, store: PostStore, clock: Clock) {
    this.#db = db;
    this.#store = store;
    this.#clock = clock;
  }

  /** The engine's report: what the look-up after an interrupted commit decided. */
  reconciled(postId: string, platform: Network, verdict: ReconcileVerdict): void {
    this.#verdicts.set(`${postId}:${platform}`, verdict);
  }

  /**
   * Runs one attempt of `job` and logs it; a throw is logged as an error and passed on. `run` gets the post and
   * platform row read just before it (nothing awaited in between), or none when either is gone.
   */
  async run(job: Job, kind: AttemptKind, run: (read?: AttemptRead) => Promise<JobOutcome>): Promise<JobOutcome> {
    const platform = job.payload.platform as Network;
    const key = `${job.subject}:${platform}`;
    const at = this.#clock();
    // The attempt's preparatory reads (these two, then the suspension, the account and its relink mark, read before
    // anything is awaited on I/O) share one read transaction on SQLite (issue 31).
    this.#db.groupReads();
    const [post, before] = await Promise.all([this.#store.findPost(job.subject), this.#store.findPlatform(job.subject, platform)]);
    if (!post || !before) return run();
    const trigger: PostAttempt['trigger'] =
      kind === 'confirm' ? 'status-check'
      : kind === 'first-comment' ? 'first-comment'
      : before.commitStartedAt !== null ? 'reconcile'
      : job.attempts > 1 ? 'retry'
      : post.retried ? 'manual'
      : post.scheduleDate !== null ? 'schedule'
      : 'immediate';
    this.#verdicts.delete(key);
    const running = { kind, at, trigger, written: false };
    this.#running.set(job.id, running);
    let outcome: JobOutcome;
    try {
      outcome = await run({ post, row: before });
    } catch (error) {
      await this.#write(job.subject, platform, at, trigger, { outcome: 'error', code: null, message: error instanceof Error ? error.message : String(error), retryAt: null }, this.#take(key));
      throw error;
    } finally {
      this.#running.delete(job.id);
    }
    // Claimed at once, so a result transaction still running after a deadline cannot write a second row.
    if (running.written) return outcome;
    running.written = true;
    // A retry or failure is told by the outcome; only a finished run needs the row as it ended.
    const after = outcome.kind === 'done' ? await this.#store.findPlatform(job.subject, platform) : null;
    await this.#write(job.subject, platform, at, trigger, resultOf(kind, outcome, after), this.#take(key));
    return outcome;
  }

  /**
   * Writes the row of `job`'s running attempt in `tx`, the transaction that records its result and completes it
   * (engine.ts), so the row costs no commit (nor, on SQLite, a sync) of its own (issue 31). Nothing when the job
   * is not running under `run` (a test running an attempt by hand) or its row was written. `after`: the platform's row
   * as `tx` wrote it, when the caller read it already (else read here).
   */
  async recordIn(tx: SqlExecutor, job: Job, after?: StoredPlatform | null): Promise<void> {
    const running = this.#running.get(job.id);
    if (!running || running.written) return;
    running.written = true;
    const platform = job.payload.platform as Network;
    if (after === undefined) after = await this.#store.findPlatform(job.subject, platform, tx);
    await this.#write(job.subject, platform, running.at, running.trigger, resultOf(running.kind, { kind: 'done' }, after), this.#take(`${job.subject}:${platform}`), tx);
  }

  async list(postId: string): Promise<PostAttempt[]> {
    const rows = await this.#db.all('SELECT platform, at, trigger, outcome, code, message, retry_at, reconcile FROM publish_attempts WHERE post_id = ? ORDER BY at, id', [postId]);
    return rows.map((row) => ({
      platform: row.platform as Network,
      at: iso(Number(row.at)),
      trigger: row.trigger as PostAttempt['trigger'],
      outcome: row.outcome as PostAttempt['outcome'],
      code: row.code === null ? null : Number(row.code),
      message: (row.message as string | null) ?? null,
      retryAt: row.retry_at === null ? null : iso(Number(row.retry_at)),
      reconcile: (row.reconcile as PostAttempt['reconcile']) ?? null,
    }));
  }

  #take(key: string): ReconcileVerdict | null {
    const verdict = this.#verdicts.get(key) ?? null;
    this.#verdicts.delete(key);
    return verdict;
  }

  async #write(postId: string, platform: Network, at: number, trigger: string, result: Result, reconcile: ReconcileVerdict | null, executor: SqlExecutor = this.#db): Promise<void> {
    await executor.run(
      'INSERT INTO publish_attempts (id, post_id, platform, at, trigger, outcome, code, message, retry_at, reconcile) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [newId('att_'), postId, platform, at, trigger, result.outcome, result.code, result.message?.slice(0, 2000) ?? null, result.retryAt, reconcile],
    );
  }
}

interface Result {
  outcome: PostAttempt['outcome'];
  code: number | null;
  message: string | null;
  retryAt: number | null;
}

/** A job outcome's error text is `<code> <message>` (engine) or a bare message. */
function parseError(error: string | undefined): { code: number | null; message: string | null } {
  if (!error) return { code: null, message: null };
  const match = /^(\d{3}) ([\s\S]*)$/.exec(error);
  return match ? { code: Number(match[1]), message: match[2]! } : { code: null, message: error };
}

function resultOf(kind: AttemptKind, outcome: JobOutcome, row: StoredPlatform | null): Result {
  if (outcome.kind === 'retry') return { outcome: 'retry', ...parseError(outcome.error), retryAt: outcome.runAt };
  if (outcome.kind === 'failed') return { outcome: 'error', ...parseError(outcome.error), retryAt: null };
  if (kind === 'first-comment') {
    const comment = row?.firstComment;
    if (comment?.status === 'success') return { outcome: 'success', code: null, message: null, retryAt: null };
    if (comment?.status === 'error') return { outcome: 'error', code: comment.code, message: comment.message, retryAt: null };
    return { outcome: comment?.status === 'pending' ? 'pending' : 'abandoned', code: null, message: null, retryAt: null };
  }
  if (row?.status === 'success') return { outcome: 'success', code: null, message: null, retryAt: null };
  if (row?.status === 'pending') return { outcome: 'pending', code: null, message: null, retryAt: null };
  if (row?.status === 'error') return { outcome: 'error', code: row.error?.code ?? null, message: row.error?.message ?? null, retryAt: null };
  // Ended without a result: the lease was lost (another worker has the job), or the post was deleted or paused.
  return { outcome: 'abandoned', code: null, message: null, retryAt: null };
}
