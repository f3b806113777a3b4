/**
 * @module
 * The attempt pipeline, one platform of one post at a time, as a job (`publish:<platform>` of a post):
 * prepare (idempotent) → record its result and `commit_started_at` in one write → adapter.commit (ONCE) → record the result →
 * for pending results a `confirm` job. The result step is ONE transaction: the platform's result, its follow-up jobs
 * (confirm, first comment), the post's final status with its webhook, and the job's completion. It is never merged
 * with the "commit started" write: that one must be durable before the network call. A row with a started commit and no result is what a crash leaves: it goes to
 * adapter.reconcile, which finds what the commit made; only when the network has nothing does the commit run again.
 * When the last platform of a post finishes, the post's status is set once (compare-and-set) and, for scheduled
 * posts, the `scheduled` webhook is queued in that same transaction.
 * Its parts: the account context a call runs in (publish-context.ts), how results look (publish-results.ts), the
 * lease-held start of an irreversible call (lease-held-call.ts), the first-comment job (first-comment-job.ts) and
 * the month's quota at the due time (due-month-quota.ts).
 */
import type { Network, ProfileSuspension } from '@social-link-kit/protocol';
import type { PostIdEntry, PostStatus } from '@social-link-kit/protocol/publishing/index.js';
import { PUBLISHING_CAPABILITIES } from '@social-link-kit/protocol/publishing/capabilities.js';
import type { Job } from '../core/jobs/job-store.js';
import type { JobHandler, JobOutcome } from '../core/jobs/job-worker.js';
import { jobRetryDelayMs } from '../core/jobs/job-backoff.js';
import type { PublishAdapter, PublishContext, PublishDone, PublishFailure } from '../networks/publish-adapter.js';
import type { SqlExecutor } from '../core/db/sql-driver.js';
import type { StoredPlatform, StoredPost } from './post-store.js';
import { countDueInItsMonth } from './due-month-quota.js';
import { fencedCall, fenceSends, leftToReconcile, startWhileLeaseHeld, waitOutInterruptedCall } from './lease-held-call.js';
import { enqueueScheduledEvent } from './scheduled-event.js';
import { PREPARED_MEDIA_KEY, preparedMediaOf, preparePostMedia } from './prepare-post-media.js';
import { crawlerBlockedAfterRehost, shouldRehost } from './media/crawler-blocked.js';
import { releaseNetworkBudgets, takeNetworkBudgets } from '../networks/network-rate-budgets.js';
import { unconfirmed } from '../networks/reconcile-by-identity.js';
import type { AttemptKind, AttemptRead } from './attempt-log.js';
import type { CrashPoint, EngineDeps } from './engine-deps.js';
import { publishContextFor } from './publish-context.js';
import { mediaUrlsFor } from './post-media.js';
import { failureToError, isFailure, isWaiting, onceMoreWithNewTokens, platformError, postIdEntry } from './publish-results.js';
import { runFirstComment, FIRST_COMMENT_DELAY_MS } from './first-comment-job.js';
import { COMMUNITY_STANDARDS_BLOCK, recordCommunityStandardsBlock, suspendedFailure, suspensionAndPlanOf, suspensionOf } from '../accounts/suspension.js';

// What other modules read from the engine's parts, kept importable from here.
export type { CrashPoint, EngineDeps } from './engine-deps.js';
export { attemptKey, networkOptionsFor } from './publish-context.js';
export { mediaUrlsFor } from './post-media.js';
export { platformError, postIdEntry, renewedTokenRefused } from './publish-results.js';
export { FIRST_COMMENT_DELAY_MS } from './first-comment-job.js';

export const JOB_PUBLISH = 'publish';
export const JOB_CONFIRM = 'confirm';
export const JOB_FIRST_COMMENT = 'first-comment';


export class PublishingEngine {
  readonly #deps: EngineDeps;
  #crashed = false;

  constructor(deps: EngineDeps) {
    this.#deps = deps;
  }

  /** Test hook: SIGKILL here when asked, so nothing after this line (not even a log flush) runs. */
  #maybeCrash(point: CrashPoint) {
    if (this.#deps.crashAt === point && !this.#crashed) {
      this.#crashed = true;
      process.kill(process.pid, 'SIGKILL');
    }
  }

  #context(post: StoredPost, row: StoredPlatform): Promise<PublishContext | PublishFailure> {
    return publishContextFor(this.#deps, post, row, (point) => this.#maybeCrash(point));
  }

  /**
   * Runs (or resumes) one platform's attempt. Returns when the attempt is finished, pending, or must be retried later.
   * With the attempt's leased `job`, a finished attempt also completes the job in its result transaction. `read`: the
   * post and row as the attempt log read them the moment it started this run (attempt-log.ts), else read here.
   */
  async runAttempt(postId: string, platform: Network, attempts: number, job?: Job, read?: AttemptRead): Promise<JobOutcome> {
    const { store, clock } = this.#deps;
    const [post, row] = read ? [read.post, read.row] : await Promise.all([store.findPost(postId), store.findPlatform(postId, platform)]);
    if (!post || !row) return { kind: 'done' };
    // A suspended profile publishes nothing (accounts/suspension.ts); an interrupted commit is still reconciled.
    // Read once per attempt, at a scheduled post's start together with the plan its month's quota counts on.
    let suspension: ProfileSuspension | null | undefined;
    // A scheduled post's first due attempt starts its processing (compare-and-set: one of its platforms' jobs wins).
    if (post.status === 'scheduled' && (await store.moveStatus(postId, ['scheduled'], 'processing', clock()))) {
      post.status = 'processing';
      const profile = await suspensionAndPlanOf(store.db, post.profileId);
      suspension = profile.suspension;
      if (!(await countDueInItsMonth(this.#deps, post, profile.plan, (id) => this.finishPostIfDone(id)))) return { kind: 'done' };
    } else if (post.status === 'scheduled') post.status = (await store.findPost(postId))?.status ?? post.status;
    // Deleted, paused or held meanwhile: the job ends without publishing.
    if (post.status !== 'processing' || row.finishedAt !== null || row.status === 'pending') return { kind: 'done' };
    if (row.commitStartedAt !== null) suspension = null;
    else if (suspension === undefined) suspension = await suspensionOf(store.db, post.profileId);
    if (suspension) return this.#failBeforeCommit(post, platform, suspendedFailure(suspension), attempts, job);
    const ctx = await this.#context(post, row);
    if ('kind' in ctx) return this.#finishAttempt(postId, job, (tx) => store.recordError(postId, platform, failureToError(ctx), clock(), tx));
    const adapter = this.#deps.adapters[platform];
    let budgetUses: string[] = [];

    // The prepared state the commit sends: stored now, or (an interrupted commit) stored by the earlier attempt.
    let committing: Record<string, unknown> | null = null;
    if (row.commitStartedAt !== null) {
      // A commit started and its result was never recorded: look on the network instead of publishing again.
      // Identity, not recency: the adapter pages back to the commit's start and skips posts other posts recorded.
      ctx.commitStartedAt = row.commitStartedAt;
      ctx.isClaimed = (networkPostId) => store.isNetworkPostClaimed(platform, networkPostId, postId);
      let found = await adapter.reconcile(ctx, row.prepared ?? {});
      // Nothing yet, but the interrupted send may still be answered (its worker lost the lease, not its call).
      if (!found && (await waitOutInterruptedCall(this.#deps, job, `publish ${postId} ${platform}`))) {
        // The state as the interrupted commit left it (a thread's part in flight), not as the first look rewrote it.
        found = await adapter.reconcile(ctx, row.prepared ?? {});
      }
      this.#deps.attemptLog?.reconciled(postId, platform, !found ? 'not-found' : found.kind !== 'failed' ? 'found' : found.details?.outcome === 'unknown' ? 'undecided' : 'not-found');
      if (found) {
        this.#deps.log(`publish ${postId} ${platform}: reconciled an interrupted commit (${found.kind})`);
        return this.#recordCommitResult(post, platform, found, job);
      }
      // Reconcile paged back to the commit's time and found nothing: the commit never reached the network. It runs
      // again only while this worker holds the job (another one may have taken it over meanwhile).
      if (!(await startWhileLeaseHeld(this.#deps, job, async () => true))) return { kind: 'done' };
      this.#deps.log(`publish ${postId} ${platform}: interrupted commit left nothing on the network; committing again`);
    } else {
      let media = await this.#prepareMedia(post, row, ctx);
      if (isFailure(media)) return this.#failBeforeCommit(post, platform, media, attempts, job);
      ctx.post.mediaUrls = media.urls;
      let prepared = await onceMoreWithNewTokens(ctx, () => adapter.prepare(ctx, row.prepared), 'any');
      if (isFailure(prepared) && shouldRehost(prepared, media)) {
        // The network's crawler could not fetch the origin: once more from the service's own copies (479 after).
        media = await this.#prepareMedia(post, row, ctx, true);
        if (isFailure(media)) return this.#failBeforeCommit(post, platform, media, attempts, job);
        ctx.post.mediaUrls = media.urls;
        prepared = await adapter.prepare(ctx, row.prepared);
      }
      if (isFailure(prepared)) return this.#failBeforeCommit(post, platform, crawlerBlockedAfterRehost(prepared, media), attempts, job);
      if (isWaiting(prepared)) {
        // The network is still processing (containers): keep what prepare made, with the media, and ask again later.
        await store.savePrepared(postId, platform, { ...prepared.state, [PREPARED_MEDIA_KEY]: media });
        return { kind: 'retry', runAt: clock() + prepared.checkAfterMs };
      }
      this.#maybeCrash('after-prepare');
      const toCommit = { ...prepared, [PREPARED_MEDIA_KEY]: media };
      // The network's own limits (network-rate-budgets.ts), counted before the irreversible call.
      const budgets = await takeNetworkBudgets(ctx.rateBudget!, platform, ctx.account);
      if (!budgets.ok) {
        await store.savePrepared(postId, platform, toCommit);
        return this.#failBeforeCommit(post, platform, budgets.failure, attempts, job);
      }
      budgetUses = budgets.useIds;
      if (!(await startWhileLeaseHeld(this.#deps, job, (tx) => store.savePreparedAndStartCommit(postId, platform, toCommit, clock(), tx)))) {
        await releaseNetworkBudgets(ctx.rateBudget!, budgetUses);
        return { kind: 'done' };
      }
      this.#maybeCrash('after-commit-started');
      // What was just stored, as a reader of the row would see it (JSON), without reading the row back.
      committing = JSON.parse(JSON.stringify(toCommit)) as Record<string, unknown>;
    }
    // After a reconcile that found nothing (or part of a thread), the state as it stored it.
    const prepared = committing ?? (await store.findPlatform(postId, platform))?.prepared ?? row.prepared ?? {};
    // A commit refused for its token (401) published nothing, so it may run once more with renewed tokens. Each of
    // its sends is fenced: a worker that lost its lease meanwhile sends nothing more and records nothing. A network
    // that does not thread publishes with one send, whose note the result's transaction clears (issue 31).
    const fenced = fenceSends(this.#deps, job, ctx, !PUBLISHING_CAPABILITIES[platform].threads);
    const result = await fencedCall(fenced, () => onceMoreWithNewTokens(fenced.ctx, () => adapter.commit(fenced.ctx, prepared), 'token-refused'));
    if (result === null) return leftToReconcile(clock());
    this.#maybeCrash('after-commit');
    if (result.kind === 'failed') await releaseNetworkBudgets(ctx.rateBudget!, budgetUses);
    return this.#recordCommitResult(post, platform, result.kind === 'failed' ? crawlerBlockedAfterRehost(result, preparedMediaOf(prepared)) : result, job);
  }

  /**
   * The result step in one transaction: the job is completed, then `write` records the platform's result, then the
   * post's final status (and webhook) when it was the last platform. A worker whose job another one took over (its
   * lease ran out under a slow answer) records nothing: the one holding it now reconciles, and a result recorded twice
   * would queue the first comment twice. The post's row is locked first so two platforms finishing at once cannot
   * both miss each other's result.
   */
  async #finishAttempt(postId: string, job: Job | undefined, write: (tx: SqlExecutor) => Promise<void>): Promise<JobOutcome> {
    const { store, jobs, clock } = this.#deps;
    const recorded = await store.db.transaction(async (tx) => {
      const post = await store.lockPost(tx, postId);
      const completed = job ? await jobs.complete(job, clock(), tx) : false;
      if (job && !completed) return false;
      await write(tx);
      // The post's rows as written, read once for its final status and the attempt's timeline row.
      const rows = post ? await store.listPlatforms(postId, tx) : null;
      if (post) await this.#finishPostIn(tx, post, rows!);
      // The attempt's timeline row rides in this commit (attempt-log.ts).
      if (job) await this.#deps.attemptLog?.recordIn(tx, job, rows ? (rows.find((row) => row.platform === job.payload.platform) ?? null) : undefined);
      return completed;
    });
    return { kind: 'done', recorded };
  }

  /** The media step (prepare-post-media.ts), once per attempt: a resumed attempt reuses what it stored. */
  async #prepareMedia(post: StoredPost, row: StoredPlatform, ctx: PublishContext, rehost = false) {
    const { media } = this.#deps;
    const earlier = preparedMediaOf(row.prepared);
    if (earlier && !rehost) return earlier;
    const urls = mediaUrlsFor(post.request, row.platform);
    if (!media || urls.length === 0) return { urls };
    const twitterOptions = post.request.twitterOptions as { longVideo?: unknown } | undefined;
    return preparePostMedia(urls, row.platform, media, post.mediaCopies, { longVideo: ctx.post.platform === 'twitter' && twitterOptions?.longVideo === true, rehost });
  }

  async #failBeforeCommit(post: StoredPost, platform: Network, failure: PublishFailure, attempts: number, job?: Job): Promise<JobOutcome> {
    const { clock, retryBaseMs, retryMaxMs, maxAttempts } = this.#deps;
    if (failure.retryAvailable && !failure.noAutoRetry && attempts < maxAttempts) {
      return { kind: 'retry', runAt: clock() + jobRetryDelayMs(attempts, retryBaseMs, retryMaxMs, failure.retryAfterMs), error: `${failure.code} ${failure.message}` };
    }
    this.#deps.metrics?.publishOutcome(platform, 'error');
    return this.#finishAttempt(post.id, job, (tx) => this.#deps.store.recordError(post.id, platform, failureToError(failure), clock(), tx));
  }

  async #recordCommitResult(post: StoredPost, platform: Network, result: Awaited<ReturnType<PublishAdapter['commit']>>, job?: Job): Promise<JobOutcome> {
    const { store, jobs, clock } = this.#deps;
    this.#deps.metrics?.publishOutcome(platform, result.kind === 'done' ? 'success' : result.kind === 'pending' ? 'pending' : 'error');
    return this.#finishAttempt(post.id, job, async (tx) => {
      const now = clock();
      if (result.kind === 'done') {
        await store.recordSuccess(post.id, platform, { id: result.id, postUrl: result.postUrl, ...(result.warnings && { warnings: result.warnings }) }, now, tx);
        await this.#queueFirstComment(post, platform, tx);
      } else if (result.kind === 'pending') {
        await store.recordPending(post.id, platform, result.state, tx);
        await jobs.add({ kind: JOB_CONFIRM, subject: post.id, payload: { platform }, runAt: now + result.checkAfterMs }, now, tx);
      } else {
        await store.recordError(post.id, platform, failureToError(result), now, tx);
        // A repeat community standards block unlinks the account and suspends the profile (spec 7, 249).
        if (result.code === COMMUNITY_STANDARDS_BLOCK) await recordCommunityStandardsBlock(tx, this.#deps.storage, { profileId: post.profileId, platform, postId: post.id, at: now });
        // The outcome could not be decided (reconcile): the caller may never have had an answer, so say it now.
        if (result.details?.outcome === 'unknown') {
          await enqueueScheduledEvent(tx, { profileId: post.profileId, postId: post.id, status: 'unconfirmed', errors: [platformError(platform, failureToError(result))], postIds: [], subAction: 'unconfirmed', at: now });
        }
      }
    });
  }

  async #queueFirstComment(post: StoredPost, platform: Network, tx: SqlExecutor): Promise<void> {
    const firstComment = post.request.firstComment as { comment: string; mediaUrls?: string[] } | undefined;
    if (!firstComment) return;
    // Spec 4.9 rule 5: about 20 s after the post (tiktok: after processing, which is when this runs for it).
    // Once per platform: a second record of its success must not reset a started comment and send it again.
    if (!(await this.#deps.store.queueFirstCommentOnce(post.id, platform, tx))) return;
    const now = this.#deps.clock();
    await this.#deps.jobs.add({ kind: JOB_FIRST_COMMENT, subject: post.id, payload: { platform }, runAt: now + (this.#deps.firstCommentDelayMs ?? FIRST_COMMENT_DELAY_MS) }, now, tx);
  }

  async confirm(postId: string, platform: Network, attempts: number, job?: Job): Promise<JobOutcome> {
    const { store, clock } = this.#deps;
    const post = await store.findPost(postId);
    const row = await store.findPlatform(postId, platform);
    if (!post || !row || row.status !== 'pending') return { kind: 'done' };
    const ctx = await this.#context(post, row);
    if ('kind' in ctx) return this.#finishAttempt(postId, job, (tx) => store.recordError(postId, platform, failureToError(ctx), clock(), tx));
    const result = await this.#deps.adapters[platform].confirm(ctx, row.pendingState ?? {});
    if (result.kind === 'pending') return { kind: 'retry', runAt: clock() + result.checkAfterMs };
    if (result.kind === 'done') {
      await this.resolvePending(postId, platform, result);
      return { kind: 'done' };
    }
    if (result.kind === 'failed' && result.retryAvailable && attempts < this.#deps.maxAttempts) {
      return { kind: 'retry', runAt: clock() + jobRetryDelayMs(attempts, this.#deps.retryBaseMs, this.#deps.retryMaxMs, result.retryAfterMs) };
    }
    return this.#recordCommitResult(post, platform, result, job);
  }

  /**
   * A pending platform finished on the network (its status poll, or its callback: tiktok's
   * `post.publish.publicly_available`). Only the first resolution counts (compare-and-set): it queues the first
   * comment, finishes the post and, for tiktok, the `tikTokPublished` event. False when it was resolved already.
   */
  async resolvePending(postId: string, platform: Network, done: PublishDone): Promise<boolean> {
    const { store, clock } = this.#deps;
    const resolved = await store.db.transaction(async (tx) => {
      const post = await store.lockPost(tx, postId);
      if (!post || !(await store.resolvePending(postId, platform, done, clock(), tx))) return false;
      await this.#queueFirstComment(post, platform, tx);
      await this.#finishPostIn(tx, post);
      // In the resolution's own commit: once it is visible the event is queued, and a crash cannot lose it.
      if (platform === 'tiktok') await this.#tikTokPublishedIn(tx, post);
      return true;
    });
    if (!resolved) return false;
    this.#deps.metrics?.publishOutcome(platform, 'success');
    return true;
  }

  async #tikTokPublishedIn(tx: SqlExecutor, post: StoredPost): Promise<void> {
    const rows = await this.#deps.store.listPlatforms(post.id, tx);
    const entry = rows.filter((row) => row.platform === 'tiktok').map(postIdEntry).filter((e): e is PostIdEntry => e !== null);
    await enqueueScheduledEvent(tx, { profileId: post.profileId, postId: post.id, status: 'success', errors: [], postIds: entry, subAction: 'tikTokPublished', at: this.#deps.clock() });
  }

  firstComment(postId: string, platform: Network, attempts: number, job?: Job): Promise<JobOutcome> {
    return runFirstComment({ deps: this.#deps, context: (post, row) => this.#context(post, row), crash: (point) => this.#maybeCrash(point) }, postId, platform, attempts, job);
  }

  /**
   * When no platform of the post is still queued or processing, sets the post's final status once: `pending`
   * while any platform waits for the network, `error` when any failed, else `success`. The one caller whose
   * compare-and-set wins queues the `scheduled` webhook (scheduled posts only) in the same transaction.
   */
  async finishPostIfDone(postId: string): Promise<PostStatus | null> {
    const { store } = this.#deps;
    return store.db.transaction(async (tx) => {
      const post = await store.lockPost(tx, postId);
      return post ? this.#finishPostIn(tx, post) : null;
    });
  }

  /**
   * The post's final status once no platform is left to run; `post` as read (and locked) in this transaction, `rows`
   * its platforms as read in it after its writes (else read here).
   */
  async #finishPostIn(tx: SqlExecutor, post: StoredPost, rows?: StoredPlatform[]): Promise<PostStatus | null> {
    const { store, clock } = this.#deps;
    const postId = post.id;
    rows ??= await store.listPlatforms(postId, tx);
    if (rows.some((row) => row.status === 'queued' || row.status === 'processing')) return null;
    const status: PostStatus = rows.some((row) => row.status === 'pending') ? 'pending' : rows.some((row) => row.status === 'error') ? 'error' : 'success';
    if (!(await store.moveStatus(postId, ['processing', 'pending'], status, clock(), tx))) return null;
    // One `scheduled` event per post; a tiktok post that was `pending` reports its end as `tikTokPublished` instead.
    if (post.scheduleDate !== null && post.status === 'processing') {
      await enqueueScheduledEvent(tx, {
        profileId: post.profileId,
        postId,
        status,
        errors: rows.filter((row) => row.status === 'error' && row.error).map((row) => platformError(row.platform, row.error!)),
        postIds: rows.map(postIdEntry).filter((e): e is PostIdEntry => e !== null),
        at: clock(),
      });
    }
    return status;
  }

  /** Deletes a published platform post on its network; false when the network cannot (or the adapter has no delete). */
  async removeOnNetwork(post: StoredPost, row: StoredPlatform): Promise<boolean> {
    const adapter = this.#deps.adapters[row.platform];
    if (!adapter.remove || !row.networkPostId) return false;
    const ctx = await this.#context(post, row);
    if ('kind' in ctx) return false;
    return adapter.remove(ctx, row.networkPostId);
  }

  /**
   * Every attempt has a deadline: its retry budget. An attempt that keeps throwing (a network that never answers its
   * reconcile, tokens that cannot be opened) would otherwise end as a failed job and leave its post `processing`
   * for ever. On the last attempt it ends instead: `unconfirmed` (outcome unknown, with its webhook) when a commit
   * had started, else an error 500 naming the cause; the post then gets its final status.
   */
  async #withDeadline(job: Job, run: () => Promise<JobOutcome>): Promise<JobOutcome> {
    try {
      return await run();
    } catch (error) {
      if (job.attempts < this.#deps.maxAttempts) throw error;
      const { store } = this.#deps;
      const platform = job.payload.platform as Network;
      const [post, row] = await Promise.all([store.findPost(job.subject), store.findPlatform(job.subject, platform)]);
      if (!post || !row || row.finishedAt !== null) throw error;
      const cause = error instanceof Error ? error.message : String(error);
      this.#deps.log(`publish ${post.id} ${platform}: gave up after ${job.attempts} attempts: ${cause}`);
      const failure: PublishFailure =
        row.commitStartedAt !== null
          ? unconfirmed(platform, `the network could not be asked after ${job.attempts} attempts: ${cause}`)
          : { kind: 'failed', code: 500, message: `Publishing to ${platform} failed ${job.attempts} times: ${cause}`, retryAvailable: true, relink: false };
      return this.#recordCommitResult(post, platform, failure, job);
    }
  }

  /** One attempt of a publish job (worker or inline), with its deadline, logged on the post's timeline. */
  runPublishJob(job: Job): Promise<JobOutcome> {
    return this.#logged(job, 'publish', (read) => this.#withDeadline(job, () => this.runAttempt(job.subject, job.payload.platform as Network, job.attempts, job, read)));
  }

  #logged(job: Job, kind: AttemptKind, run: (read?: AttemptRead) => Promise<JobOutcome>): Promise<JobOutcome> {
    return this.#deps.attemptLog ? this.#deps.attemptLog.run(job, kind, run) : run();
  }

  handlers(): Record<string, JobHandler> {
    return {
      [JOB_PUBLISH]: (job: Job) => this.runPublishJob(job),
      [JOB_CONFIRM]: (job: Job) => this.#logged(job, 'confirm', () => this.confirm(job.subject, job.payload.platform as Network, job.attempts, job)),
      [JOB_FIRST_COMMENT]: (job: Job) => this.#logged(job, 'first-comment', () => this.firstComment(job.subject, job.payload.platform as Network, job.attempts, job)),
    };
  }
}

