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
 */
import type { Network, ProfileSuspension } from '@social-link-kit/protocol';
import type { PostIdEntry, PostPlatformError, PostStatus } from '@social-link-kit/protocol/publishing/index.js';
import { tokenAad } from '../core/crypto/token-cipher.js';
import type { Job, JobStore } from '../core/jobs/job-store.js';
import type { JobHandler, JobOutcome } from '../core/jobs/job-worker.js';
import { jobRetryDelayMs } from '../core/jobs/job-backoff.js';
import type { LinkedAccountRef, PlatformPost, PrepareWaiting, PublishAdapter, PublishContext, PublishDone, PublishFailure } from '../networks/publish-adapter.js';
import { databaseRateBudget } from '../core/rate-budget.js';
import type { SqlExecutor } from '../core/db/sql-driver.js';
import type { PostStore, StoredPlatform, StoredPost } from './post-store.js';
import { ApiError } from '../core/errors.js';
import { countPosts, monthlyCount, monthlyQuota, QUOTA_EXCEEDED, quotaError, quotaMonth } from './post-quota.js';
import { enqueueScheduledEvent } from './scheduled-event.js';
import { personalAccountRefusal } from './rules/personal-accounts.js';
import type { MediaDeps } from './media/inspect-media.js';
import { PREPARED_MEDIA_KEY, preparedMediaOf, preparePostMedia } from './prepare-post-media.js';
import { crawlerBlockedAfterRehost, shouldRehost } from './media/crawler-blocked.js';
import type { TokenRefresher } from '../networks/token-refresher.js';
import type { NetworkContextDeps } from '../analytics/network-context.js';
import { networkModule } from '../networks/index.js';
import { releaseNetworkBudgets, takeNetworkBudgets } from '../networks/network-rate-budgets.js';
import { findFirstComment, publicFirstComment, type StoredFirstComment } from './first-comment-reconcile.js';
import { unconfirmed } from '../networks/reconcile-by-identity.js';
import type { AttemptKind, AttemptLog } from './attempt-log.js';
import { COMMUNITY_STANDARDS_BLOCK, recordCommunityStandardsBlock, suspendedError, suspensionOf } from '../accounts/suspension.js';

export const JOB_PUBLISH = 'publish';
export const JOB_CONFIRM = 'confirm';
export const JOB_FIRST_COMMENT = 'first-comment';

/** Steps at which a test build may stop the process (PUBLISH_TEST_CRASH_AT), to prove crash safety. */
export type CrashPoint = 'after-prepare' | 'after-commit-started' | 'after-commit' | 'between-thread-parts' | 'inside-first-comment';

/** What a network call needs (storage, tokens, clock, guarded fetch, the account's API base), as for analytics. */
export interface EngineDeps extends Omit<NetworkContextDeps, 'refresher'> {
  store: PostStore;
  jobs: JobStore;
  adapters: Record<Network, PublishAdapter>;
  /** How long a job lease lasts: a commit extends it by this much as it starts (the worker renews it meanwhile). */
  leaseMs?: number;
  /** Test only: die (SIGKILL) at this step, once per process. */
  crashAt?: CrashPoint | null;
  retryBaseMs: number;
  retryMaxMs: number;
  /** Transient prepare failures are retried this many times. */
  maxAttempts: number;
  /** The media pipeline: media is converted and stored before adapters see it; absent = URLs passed as given. */
  media?: MediaDeps;
  /** Counts each network's publish outcome (core/observability/metrics.ts); absent = not counted. */
  metrics?: { publishOutcome(network: string, outcome: 'success' | 'pending' | 'error'): void };
  /** Renews expiring tokens before network calls and once after a rejected token; absent = tokens used as stored. */
  tokenRefresher?: TokenRefresher;
  /** Delay of the first comment after the post; FIRST_COMMENT_DELAY_MS when absent. */
  firstCommentDelayMs?: number;
  /** The per-post timeline (attempt-log.ts); absent = attempts not logged. */
  attemptLog?: AttemptLog;
}

export function platformError(platform: Network, error: NonNullable<StoredPlatform['error']>): PostPlatformError {
  return { action: 'post', status: 'error', platform, ...error };
}

export function postIdEntry(row: StoredPlatform): PostIdEntry | null {
  if (row.status === 'success' && row.networkPostId) {
    const contentIssues = preparedMediaOf(row.prepared)?.contentIssues;
    return {
      status: 'success',
      platform: row.platform,
      id: row.networkPostId,
      postUrl: row.postUrl ?? '',
      ...(row.warnings && { warnings: row.warnings }),
      ...(contentIssues && { contentIssues }),
      ...(row.firstComment && { firstComment: publicFirstComment(row.firstComment) }),
    };
  }
  if (row.status === 'pending') {
    return { status: 'pending', platform: row.platform, id: 'pending', postUrl: String(row.pendingState?.url ?? '') };
  }
  return null;
}

function failureToError(failure: PublishFailure): NonNullable<StoredPlatform['error']> {
  return {
    code: failure.code,
    message: failure.message,
    ...(failure.details && { details: failure.details }),
    retryAvailable: failure.retryAvailable,
    ...(failure.relink && { relink: true }),
  };
}

/** The request's option object for a network (`twitterOptions`, `linkedInOptions`, `tikTokOptions`…). */
export function networkOptionsFor(request: Record<string, unknown>, platform: Network): Record<string, unknown> {
  const options = request[networkModule(platform).optionsKey];
  return options && typeof options === 'object' && !Array.isArray(options) ? (options as Record<string, unknown>) : {};
}

export function attemptKey(postId: string, platform: Network): string {
  return `${postId}:${platform}`;
}

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

  async #context(post: StoredPost, row: StoredPlatform): Promise<PublishContext | PublishFailure> {
    const { deps } = { deps: this.#deps };
    const social = await deps.storage.linking.findSocialAccount(post.profileId, row.platform);
    if (!social) return { kind: 'failed', code: 163, message: `No ${row.platform} account is linked to this profile.`, retryAvailable: false, relink: true };
    // Linked again meanwhile as a personal instagram account (4.9 rule 10): it cannot publish.
    const personal = personalAccountRefusal(row.platform, social.accountType);
    if (personal) return personal;
    // An account is called where it was linked; accounts linked before that was kept follow the service's setting.
    const sandbox = social.sandbox ?? deps.isSandbox(row.platform);
    const baseUrl = deps.baseUrl(row.platform, sandbox);
    if (!baseUrl) return { kind: 'failed', code: 503, message: `Publishing to ${row.platform} is not available on this service.`, retryAvailable: false, relink: false };
    const refresher = deps.tokenRefresher;
    // Tokens that expire within the margin are renewed first; an account whose renewal was refused needs a relink.
    const stale = refresher ? await refresher.ensureFresh(social) : null;
    if (stale) return stale;
    const account: LinkedAccountRef = {
      platform: row.platform,
      accountId: social.networkUserId,
      username: social.username,
      displayName: social.displayName,
      sandbox,
      async tokens() {
        if (!social.tokensEncrypted) return {};
        const opened = deps.tokenCipher.decrypt(social.tokensEncrypted, tokenAad(social.profileId, social.platform, social.networkUserId));
        return JSON.parse(opened) as Record<string, unknown>;
      },
      async saveTokens(tokens) {
        // Rotated tokens (bluesky refreshSession): sealed like a link's; never an empty refresh token.
        if (Object.keys(tokens).length === 0) return;
        const sealed = deps.tokenCipher.encrypt(JSON.stringify(tokens), tokenAad(social.profileId, social.platform, social.networkUserId));
        await deps.store.db.run('UPDATE social_accounts SET tokens_encrypted = ? WHERE profile_id = ? AND platform = ? AND network_user_id = ?', [
          sealed,
          social.profileId,
          social.platform,
          social.networkUserId,
        ]);
        social.tokensEncrypted = sealed;
      },
      ...(refresher && { refreshAfterRejection: () => refresher.afterRejection(social) }),
    };
    const request = post.request;
    const options = networkOptionsFor(request, row.platform);
    const platformPost: PlatformPost = {
      platform: row.platform,
      text: row.text,
      // Once the media step ran, the converted/stored addresses it chose (the same ones after a crash).
      mediaUrls: preparedMediaOf(row.prepared)?.urls ?? mediaUrlsFor(request, row.platform),
      isVideo: request.isVideo === true,
      options,
      postId: post.id,
      attemptKey: attemptKey(post.id, row.platform),
    };
    return {
      post: platformPost,
      account,
      baseUrl,
      fetch: deps.fetch,
      now: deps.clock,
      log: (event, fields) => deps.log(JSON.stringify({ event, postId: post.id, platform: row.platform, ...fields })),
      rateBudget: databaseRateBudget(deps.store.db, deps.clock),
      saveProgress: (state) => deps.store.savePrepared(post.id, row.platform, state),
      step: (point) => this.#maybeCrash(point),
      appCredentials: async () => networkModule(row.platform).appCredentials?.ofRequest(deps.tokenCipher, post.profileId, request) ?? null,
    };
  }

  /**
   * Runs (or resumes) one platform's attempt. Returns when the attempt is finished, pending, or must be retried later.
   * With the attempt's leased `job`, a finished attempt also completes the job in its result transaction.
   */
  async runAttempt(postId: string, platform: Network, attempts: number, job?: Job): Promise<JobOutcome> {
    const { store, clock } = this.#deps;
    const [post, row] = await Promise.all([store.findPost(postId), store.findPlatform(postId, platform)]);
    if (!post || !row) return { kind: 'done' };
    // A scheduled post's first due attempt starts its processing (compare-and-set: one of its platforms' jobs wins).
    if (post.status === 'scheduled' && (await store.moveStatus(postId, ['scheduled'], 'processing', clock()))) {
      post.status = 'processing';
      if (!(await this.#countDueInItsMonth(post))) return { kind: 'done' };
    } else if (post.status === 'scheduled') post.status = (await store.findPost(postId))?.status ?? post.status;
    // Deleted, paused or held meanwhile: the job ends without publishing.
    if (post.status !== 'processing' || row.finishedAt !== null || row.status === 'pending') return { kind: 'done' };
    // A suspended profile publishes nothing (accounts/suspension.ts); an interrupted commit is still reconciled.
    const suspension = row.commitStartedAt === null ? await suspensionOf(store.db, post.profileId) : null;
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
      const found = await adapter.reconcile(ctx, row.prepared ?? {});
      this.#deps.attemptLog?.reconciled(postId, platform, !found ? 'not-found' : found.kind !== 'failed' ? 'found' : found.details?.outcome === 'unknown' ? 'undecided' : 'not-found');
      if (found) {
        this.#deps.log(`publish ${postId} ${platform}: reconciled an interrupted commit (${found.kind})`);
        return this.#recordCommitResult(post, platform, found, job);
      }
      // Reconcile paged back to the commit's time and found nothing: the commit never reached the network. It runs
      // again only while this worker holds the job (another one may have taken it over meanwhile).
      if (!(await this.#startCommit(job, async () => true))) return { kind: 'done' };
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
      if (!(await this.#startCommit(job, (tx) => store.savePreparedAndStartCommit(postId, platform, toCommit, clock(), tx)))) {
        await releaseNetworkBudgets(ctx.rateBudget!, budgetUses);
        return { kind: 'done' };
      }
      this.#maybeCrash('after-commit-started');
      // What was just stored, as a reader of the row would see it (JSON), without reading the row back.
      committing = JSON.parse(JSON.stringify(toCommit)) as Record<string, unknown>;
    }
    // After a reconcile that found nothing (or part of a thread), the state as it stored it.
    const prepared = committing ?? (await store.findPlatform(postId, platform))?.prepared ?? row.prepared ?? {};
    // A commit refused for its token (401) published nothing, so it may run once more with renewed tokens.
    const result = await onceMoreWithNewTokens(ctx, () => adapter.commit(ctx, prepared), 'token-refused');
    this.#maybeCrash('after-commit');
    if (result.kind === 'failed') await releaseNetworkBudgets(ctx.rateBudget!, budgetUses);
    return this.#recordCommitResult(post, platform, result.kind === 'failed' ? crawlerBlockedAfterRehost(result, preparedMediaOf(prepared)) : result, job);
  }

  /**
   * Marks a commit as started (`write`) only while `job`'s lease is held, in one transaction that also extends the
   * lease: a worker whose lease ran out (another took the job) never starts the irreversible call. Without a job
   * (tests running an attempt by hand) the write runs alone.
   */
  async #startCommit(job: Job | undefined, write: (tx: SqlExecutor) => Promise<boolean>): Promise<boolean> {
    const { store, jobs, leaseMs } = this.#deps;
    return store.db.transaction(async (tx) => {
      if (job && !(await jobs.renew(job, leaseMs ?? 60_000, tx))) {
        this.#deps.log(`publish ${job.subject}: lease of job ${job.id} lost before the commit; not committing`);
        return false;
      }
      return write(tx);
    });
  }

  /**
   * The result step in one transaction: `write` records the platform's result, then the post's final status (and
   * webhook) when it was the last platform, then the job is completed. The post's row is locked first so two
   * platforms finishing at once cannot both miss each other's result.
   */
  async #finishAttempt(postId: string, job: Job | undefined, write: (tx: SqlExecutor) => Promise<void>): Promise<JobOutcome> {
    const { store, jobs, clock } = this.#deps;
    const recorded = await store.db.transaction(async (tx) => {
      const post = await store.lockPost(tx, postId);
      await write(tx);
      if (post) await this.#finishPostIn(tx, post);
      return job ? jobs.complete(job, clock(), tx) : false;
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

  /**
   * Spec 7 (106): a post due in a later month than it was created in counts in the month it is sent; when that
   * month's quota is used, every platform fails with 106 instead of publishing. One due in the month it was created
   * in was counted then; it fails when the month's count is over the quota now (the quota was lowered since).
   * False when it failed.
   */
  async #countDueInItsMonth(post: StoredPost): Promise<boolean> {
    const { store, clock, storage } = this.#deps;
    const now = clock();
    const profile = await storage.accounts.findProfileById(post.profileId);
    const account = profile ? await storage.accounts.findAccount(profile.accountId) : null;
    if (!account) return true;
    try {
      await store.db.transaction(async (tx) => {
        if (quotaMonth(post.createdAt) !== quotaMonth(now)) return countPosts(tx, post.profileId, account.plan, 1, now);
        const quota = await monthlyQuota(tx, post.profileId, account.plan);
        if ((await monthlyCount(tx, post.profileId, now)) > quota) throw quotaError(quota);
      });
      return true;
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== QUOTA_EXCEEDED) throw error;
      for (const row of await store.listPlatforms(post.id)) {
        if (row.status === 'queued' || row.status === 'processing') {
          await store.recordError(post.id, row.platform, { code: QUOTA_EXCEEDED, message: error.message }, now);
        }
      }
      await this.finishPostIfDone(post.id);
      return false;
    }
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
    const now = this.#deps.clock();
    await this.#deps.jobs.add({ kind: JOB_FIRST_COMMENT, subject: post.id, payload: { platform }, runAt: now + (this.#deps.firstCommentDelayMs ?? FIRST_COMMENT_DELAY_MS) }, now, tx);
    await this.#deps.store.recordFirstComment(post.id, platform, { status: 'pending' }, tx);
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
      return true;
    });
    if (!resolved) return false;
    this.#deps.metrics?.publishOutcome(platform, 'success');
    if (platform === 'tiktok') await this.#tikTokPublished(postId);
    return true;
  }

  async #tikTokPublished(postId: string): Promise<void> {
    const { store, clock } = this.#deps;
    const post = await store.findPost(postId);
    if (!post) return;
    const rows = await store.listPlatforms(postId);
    const entry = rows.filter((row) => row.platform === 'tiktok').map(postIdEntry).filter((e): e is PostIdEntry => e !== null);
    await store.db.transaction((tx) =>
      enqueueScheduledEvent(tx, { profileId: post.profileId, postId, status: 'success', errors: [], postIds: entry, subAction: 'tikTokPublished', at: clock() }),
    );
  }

  async firstComment(postId: string, platform: Network, attempts: number, job?: Job): Promise<JobOutcome> {
    const { store, clock } = this.#deps;
    const post = await store.findPost(postId);
    const row = await store.findPlatform(postId, platform);
    const firstComment = post?.request.firstComment as { comment: string; mediaUrls?: string[] } | undefined;
    if (!post || !row || !firstComment || row.status !== 'success' || !row.networkPostId) return { kind: 'done' };
    const adapter = this.#deps.adapters[platform];
    // The outcome is kept on the platform row, so GET /api/post/:id shows the comment's id or its error.
    const failed = async (code: number, message: string): Promise<JobOutcome> => {
      await store.recordFirstComment(postId, platform, { status: 'error', code, message });
      return { kind: 'failed', error: `${code} ${message}` };
    };
    if (!adapter.comment) return failed(101, `${platform} cannot take comments.`);
    // Spec 4.9 rule 5: the post is published, the comment reports the error.
    const tikTokOptions = post.request.tikTokOptions as { visibility?: unknown } | undefined;
    if (platform === 'tiktok' && tikTokOptions?.visibility !== 'public') return failed(101, 'A first comment on tiktok needs tikTokOptions.visibility "public".');
    const ctx = await this.#context(post, row);
    if ('kind' in ctx) return failed(ctx.code, ctx.message);
    const retryOr = (result: PublishFailure): Promise<JobOutcome> | JobOutcome =>
      result.retryAvailable && attempts < this.#deps.maxAttempts
        ? { kind: 'retry', runAt: clock() + jobRetryDelayMs(attempts, this.#deps.retryBaseMs, this.#deps.retryMaxMs, result.retryAfterMs) }
        : failed(result.code, result.message);
    const stored = row.firstComment as StoredFirstComment | null;
    if (stored?.status === 'pending' && stored.startedAt !== undefined) {
      // A comment call started and its result was never recorded: look for it instead of commenting again.
      const found = await findFirstComment(adapter, ctx, row.networkPostId, firstComment.comment, stored.startedAt);
      if (found && 'kind' in found) return retryOr(found);
      if (found && 'unknown' in found) {
        return failed(500, `The service stopped while posting the first comment and could not tell whether it went out (${found.unknown}). It was not sent again.`);
      }
      if (found) {
        await store.recordFirstComment(postId, platform, { status: 'success', id: found.id });
        return { kind: 'done' };
      }
    }
    // The call's start is durable before the call, and only while this worker holds the job.
    if (!(await this.#startCommit(job, async (tx) => (await store.recordFirstComment(postId, platform, { status: 'pending', startedAt: clock() } as StoredFirstComment, tx), true)))) {
      return { kind: 'done' };
    }
    const result = await adapter.comment(ctx, row.networkPostId, firstComment.comment, firstComment.mediaUrls ?? []);
    this.#maybeCrash('inside-first-comment');
    if (result.kind === 'failed') return retryOr(result);
    // A tiktok comment waits for processing on the network: it stays pending (spec 4.9 rule 5).
    await store.recordFirstComment(postId, platform, result.kind === 'done' ? { status: 'success', id: result.id } : { status: 'pending' });
    return { kind: 'done' };
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

  /** The post's final status once no platform is left to run; `post` as read (and locked) in this transaction. */
  async #finishPostIn(tx: SqlExecutor, post: StoredPost): Promise<PostStatus | null> {
    const { store, clock } = this.#deps;
    const postId = post.id;
    const rows = await store.listPlatforms(postId, tx);
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
    return this.#logged(job, 'publish', () => this.#withDeadline(job, () => this.runAttempt(job.subject, job.payload.platform as Network, job.attempts, job)));
  }

  #logged(job: Job, kind: AttemptKind, run: () => Promise<JobOutcome>): Promise<JobOutcome> {
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

/** A due post of a suspended profile fails with 105 on each platform, never retried. */
function suspendedFailure(suspension: ProfileSuspension): PublishFailure {
  const error = suspendedError(suspension, 'post');
  return { kind: 'failed', code: error.code, message: error.message, retryAvailable: false, relink: false, details: { suspension } };
}

function isFailure<T extends object>(value: T | PublishFailure): value is PublishFailure {
  const failure = value as Partial<PublishFailure>;
  return failure.kind === 'failed' && typeof failure.code === 'number' && typeof failure.retryAvailable === 'boolean';
}

/**
 * Runs a step; when the network refused the account's token and the tokens could be renewed, runs it once more.
 * `token-refused` retries only a plain 401 (the irreversible commit); `any` retries every relink failure (prepare
 * is idempotent).
 */
async function onceMoreWithNewTokens<T extends object>(ctx: PublishContext, step: () => Promise<T | PublishFailure>, which: 'any' | 'token-refused'): Promise<T | PublishFailure> {
  const result = await step();
  if (!isFailure(result) || !result.relink || (which === 'token-refused' && result.code !== 401)) return result;
  const renewal = ctx.account.refreshAfterRejection ? await ctx.account.refreshAfterRejection() : false;
  if (renewal !== true) return renewal === false ? result : renewal;
  ctx.log('token renewed after a rejection; trying once more');
  const again = await step();
  return isFailure(again) && again.relink ? renewedTokenRefused(ctx.account.platform, again) : again;
}

/**
 * The network refused the token it had just issued on renewal: a new link would get a token from the same place,
 * refused the same way (the service's app or API address does not match the network's), so relinking is not advised.
 */
export function renewedTokenRefused(platform: Network, failure: PublishFailure): PublishFailure {
  return {
    ...failure,
    relink: false,
    retryAvailable: false,
    message: `${platform} refused the account's access token again right after the service renewed it, so linking the account again will not help: the network does not accept the tokens it issues to this service (check the service's ${platform} app and API address).`,
    details: { ...failure.details, renewedTokenRefused: true },
  };
}

function isWaiting(value: object): value is PrepareWaiting {
  return (value as Partial<PrepareWaiting>).kind === 'waiting';
}

export const FIRST_COMMENT_DELAY_MS = 20_000;

/** The media URLs of a platform: its own list in the object form, else `default`, else the plain list. */
export function mediaUrlsFor(request: Record<string, unknown>, platform: Network): string[] {
  const media = request.mediaUrls;
  if (Array.isArray(media)) return media as string[];
  if (media && typeof media === 'object') {
    const perPlatform = media as Record<string, string[] | undefined>;
    return perPlatform[platform] ?? perPlatform.default ?? [];
  }
  return [];
}
