/**
 * @module
 * The posts API's behaviour (spec 2.1, 2.2, 3, 4.8, 4.9), between the routes and the store/engine:
 * - create: validate the whole request; a scheduled (or held) post is checked on every platform and rejected whole
 *   if any fails, an immediate one continues on the platforms that pass. The post, its platform rows, its quota
 *   count and its jobs are written in ONE transaction (the idempotency key's unique index makes a simultaneous
 *   twin fail there), then an immediate post's attempts run inline within a budget.
 * - update (approve, pause/unpause via `scheduledPause`, scheduleDate, notes), delete (one, bulk, series), retry
 *   (only from `error`, once), get and history.
 */
import { NETWORKS, NOT_OFFERED_NETWORKS, httpStatusOf, isNetwork, type Network } from '@social-link-kit/protocol';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { PUBLISHING_CAPABILITIES } from '@social-link-kit/protocol/publishing/capabilities.js';
import {
  EDITABLE_STATUSES,
  PostRequest,
  type PostIdEntry,
  type PostPlatformError,
  type PostRecord,
  type PostResponse,
  type PostStatus,
  type UnsplashAttribution,
} from '@social-link-kit/protocol/publishing/index.js';
import type { Clock } from '../core/clock.js';
import type { Job, JobStore } from '../core/jobs/job-store.js';
import type { JobOutcome } from '../core/jobs/job-worker.js';
import { ApiError, badRequest } from '../core/errors.js';
import type { PlatformPost, PublishAdapter, PublishFailure } from '../networks/publish-adapter.js';
import type { Account, Profile } from '../core/db/storage-types.js';
import type { Storage } from '../storage/storage.js';
import { newId } from '../core/tokens.js';
import { JOB_PUBLISH, mediaUrlsFor, networkOptionsFor, platformError, postIdEntry, type PublishingEngine } from './engine.js';
import { countPosts } from './post-quota.js';
import { isUniqueViolation, type NewPlatform, type PostStore, type StoredPlatform, type StoredPost } from './post-store.js';
import { requestError } from './request-errors.js';
import { addHashtags } from './rules/auto-hashtag.js';
import { applyLineBreaks } from './rules/line-breaks.js';
import { nearDuplicateMatcher, normalizeForDuplicates } from './rules/near-duplicate.js';
import { renderRichText } from './rules/rich-text.js';
import { isWarning, validateNetworkOptions } from './rules/network-options.js';
import { parseScheduleDate } from './rules/schedule-date.js';
import { personalAccountRefusal } from './rules/personal-accounts.js';
import { youtubeCategoryRefusal, type CategoryLookup } from './rules/youtube-category.js';
import { shortenLinksIn } from './short-links.js';
import { appendMediaUrls, withStockImages } from './media/stock-images.js';
import { isUnsplashProblem, resolveUnsplash, trackUnsplashDownloads, UNSPLASH_ATTRIBUTION_FIELD, unsplashSettings, type UnsplashChoice, type UnsplashDeps } from './media/unsplash.js';
import type { MediaDeps } from './media/inspect-media.js';
import { checkPostMedia, keepMediaCopies, type MediaCopies } from './post-media.js';
import { TWITTER_APP_FIELD } from '../networks/twitter/app-credentials.js';
import { exceededBudget } from './capacity.js';
import { withLease } from '../core/jobs/lease-keeper.js';
import { assertRendition, renditionHash, renditionOf, type MediaSent, type Renditions } from './rendition.js';
import { assertNotSuspended } from '../accounts/suspension.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Spec 4.9 rule 4: 24 hours either side of the post's own time. */
export const DUPLICATE_WINDOW_MS = DAY_MS;
/** Scheduling further ahead than this is refused (101): almost certainly a wrong date. */
export const MAX_SCHEDULE_AHEAD_MS = 2 * 365 * DAY_MS;
const PAID_PLANS = new Set(['premium', 'launch', 'business', 'enterprise']);

export interface PostServiceDeps {
  store: PostStore;
  jobs: JobStore;
  engine: PublishingEngine;
  storage: Storage;
  adapters: Record<Network, PublishAdapter>;
  clock: Clock;
  publicUrl(): string;
  /** How long an immediate post's request waits for its attempts before answering with what is known. */
  inlineBudgetMs: number;
  /** How long after the post its first comment goes out; an immediate post's answer waits for it (4.9 rule 5). */
  firstCommentDelayMs?: number;
  /** Lease of the jobs an immediate request runs inline (a crashed request's jobs are taken over after it). */
  leaseMs: number;
  /** The media pipeline; without it media URLs are passed on unchecked. */
  media?: MediaDeps;
  /** youtube's categories of a region for the profile's channel (spec 4.3); without it categories are not checked. */
  youtubeCategories?: CategoryLookup;
  /** Whether the profile's threads account may use `allowCountries`; without it the option is refused. */
  geoEligible?: (profileId: string) => Promise<boolean | PublishFailure | null>;
  /** Token-free log lines. */
  log?: (line: string) => void;
}

interface ResolvedPlatform {
  platform: Network;
  text: string;
  errors: PublishFailure[];
  /** Non-fatal issues of the network options (518, 521), reported on the platform's postIds entry. */
  warnings: { feature: string; code: number }[];
  /** The media as the network would receive them, once checked (rendition.ts). */
  media?: MediaSent[];
}

function iso(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function fail(code: number, message: string, details?: Record<string, unknown>): PublishFailure {
  return { kind: 'failed', code, message, retryAvailable: false, relink: false, ...(details && { details }) };
}

export class PostService {
  readonly #deps: PostServiceDeps;

  constructor(deps: PostServiceDeps) {
    this.#deps = deps;
  }

  /** `POST /api/post` (and with `dryRun`, `POST /api/validate/post`: everything but storing and publishing). */
  async create(
    account: Account,
    profile: Profile,
    body: Record<string, unknown>,
    options: { dryRun?: boolean; sealedTwitterApp?: string | null } = {},
  ): Promise<{ httpStatus: ContentfulStatusCode; body: PostResponse; preview?: { renditions: Renditions; renditionHash: string } }> {
    const { clock, store } = this.#deps;
    const parsed = PostRequest.safeParse(body);
    if (!parsed.success) throw requestError(parsed.error, 'post');
    const now = clock();
    const stock = withStockImages(parsed.data, { baseUrl: this.#deps.media?.stockBaseUrl?.() ?? `${this.#deps.publicUrl()}/sandbox/media/stock`, seed: `${profile.id} ${now}` });
    if (!stock.ok) throw new ApiError(400, 164, stock.message, { action: 'post', details: { field: 'stockImages' } });
    const unsplash = await this.#resolveUnsplash(stock.request);
    const request = unsplash?.request ?? stock.request;

    const notOffered = request.platforms.filter((platform) => (NOT_OFFERED_NETWORKS as readonly string[]).includes(platform));
    if (notOffered.length > 0) {
      throw new ApiError(400, 163, `${notOffered[0]} is not offered by this service: it is a private beta of the interface. Choose among the offered networks.`, {
        action: 'post',
        details: { notOffered, validValues: NETWORKS },
      });
    }
    const unknown = request.platforms.filter((platform) => !isNetwork(platform));
    if (unknown.length > 0) {
      throw new ApiError(400, 163, `Unknown platform(s): ${unknown.map((p) => JSON.stringify(p.slice(0, 40))).join(', ')}.`, {
        action: 'post',
        details: { invalid: unknown.slice(0, 20).map((p) => p.slice(0, 40)), validValues: NETWORKS },
      });
    }
    const platforms = [...new Set(request.platforms as Network[])];

    if (!profile.isPrimary && account.plan !== 'business' && account.plan !== 'enterprise') {
      throw new ApiError(403, 104, 'Posting for user profiles needs the Business or Enterprise plan.', { action: 'post' });
    }
    await assertNotSuspended(store.db, profile.id, 'post');
    let scheduleDate: number | null = null;
    if (request.scheduleDate !== undefined) {
      const date = parseScheduleDate(request.scheduleDate);
      if (!date.ok) throw badRequest(date.message, { field: 'scheduleDate' }, 'post');
      if (date.epochMs > now + MAX_SCHEDULE_AHEAD_MS) throw badRequest('"scheduleDate" is more than two years ahead.', { field: 'scheduleDate' }, 'post');
      scheduleDate = date.epochMs;
    }
    // Spec 4.9 rule 6: with a scheduleDate, autoRepost is ignored.
    const autoRepost = scheduleDate === null ? request.autoRepost : undefined;
    if ((request.autoHashtag || autoRepost) && !PAID_PLANS.has(account.plan)) {
      throw new ApiError(403, 104, `${request.autoHashtag ? 'autoHashtag' : 'autoRepost'} needs a paid plan.`, { action: 'post' });
    }
    if (request.shortenLinks && !account.maxPack) throw new ApiError(403, 104, 'shortenLinks needs the max-pack add-on.', { action: 'post' });
    let seriesStart = now;
    if (autoRepost?.startDate !== undefined) {
      const start = parseScheduleDate(autoRepost.startDate);
      if (!start.ok) throw badRequest(start.message.replace('scheduleDate', 'autoRepost.startDate'), { field: 'autoRepost.startDate' }, 'post');
      if (start.epochMs > now + MAX_SCHEDULE_AHEAD_MS) throw badRequest('"autoRepost.startDate" is more than two years ahead.', { field: 'autoRepost.startDate' }, 'post');
      seriesStart = Math.max(now, start.epochMs);
    }
    if (request.firstComment?.mediaUrls?.length) {
      const refusing = platforms.filter((platform) => !PUBLISHING_CAPABILITIES[platform].firstComment.media);
      if (refusing.length > 0) throw badRequest(`firstComment.mediaUrls is only for facebook, linkedin and twitter (not ${refusing.join(', ')}).`, { field: 'firstComment.mediaUrls' }, 'post');
    }
    const earlier = request.idempotencyKey !== undefined ? await store.findByIdempotencyKey(profile.id, request.idempotencyKey) : null;
    if (earlier) throw idempotencyError(request.idempotencyKey!, earlier.id);

    const effectiveAt = scheduleDate ?? seriesStart;
    const held = request.requiresApproval === true;
    // With autoRepost.startDate the whole series starts there (2.2): the first post is scheduled, not sent now.
    const scheduled = (scheduleDate !== null && scheduleDate > now) || (autoRepost !== undefined && seriesStart > now);
    const resolved = await Promise.all(platforms.map((platform) => this.#resolvePlatform(account, profile, request, platform, effectiveAt)));
    if (this.#deps.media && hasMedia(request)) await checkMedia(request, resolved, this.#deps.media);
    const failing = resolved.filter((entry) => entry.errors.length > 0);
    const errors = failing.map((entry) => platformError(entry.platform, toError(entry.errors[0]!)));
    // Spec 3: a scheduled post is created only if every platform passes; an immediate one continues on the rest.
    if (failing.length > 0 && (scheduled || held || failing.length === resolved.length)) {
      throw new ApiError(httpStatusOf(errors[0]!.code) as ContentfulStatusCode, errors[0]!.code, `The post was not created: ${errors.map((e) => `${e.platform}: ${e.message}`).join(' ')}`, {
        action: 'post',
        details: { errors },
      });
    }
    // Issue 30: a scheduled post that a network's rolling budget would refuse at its time is refused now (capacity.ts).
    if (scheduled) {
      for (const entry of resolved.filter((e) => e.errors.length === 0)) {
        const full = await exceededBudget(store.db, profile.id, entry.platform, effectiveAt);
        if (full) {
          const availableAt = new Date(full.availableAt).toISOString();
          throw new ApiError(400, 101, `The post was not created: ${entry.platform} allows ${full.limit} ${full.describes}, and ${full.used} are already scheduled or sent in the window before its time; the first time it fits is ${availableAt}.`, {
            action: 'post',
            details: { field: 'scheduleDate', platform: entry.platform, budget: full.name, limit: full.limit, used: full.used, availableAt },
          });
        }
      }
    }
    const postText = typeof request.post === 'string' ? request.post : (request.post.default ?? '');
    const publicUrl = this.#deps.publicUrl();
    const renditions = renditionsOf(request, resolved, publicUrl);
    if (options.dryRun) {
      const preview = { renditions, renditionHash: renditionHash(renditions, publicUrl) };
      return { httpStatus: 200, body: { status: 'success', errors: [], postIds: [], id: '', refId: profile.refId, post: postText }, preview };
    }
    assertRendition(request.expectedRenditionHash, renditions, publicUrl);

    // An auto-repost series: the first post at the start, then one every `days` days.
    const times = autoRepost ? Array.from({ length: autoRepost.repeat + 1 }, (_, i) => seriesStart + i * autoRepost.days * DAY_MS) : [scheduleDate];
    const autoRepostId = autoRepost ? newId('ar_') : null;
    const status: PostStatus = held ? 'awaiting approval' : scheduled ? 'scheduled' : 'processing';
    const ids = times.map(() => newId('post_'));
    const inline: Job[] = [];
    // Media protection (4.9 rule 7): a post sent later keeps copies of its images, published if the origin fails then.
    const mediaCopies: MediaCopies | null =
      this.#deps.media && (scheduled || held || autoRepost) && hasMedia(request)
        ? await keepMediaCopies(request, resolved.filter((entry) => entry.errors.length === 0).map((entry) => entry.platform), this.#deps.media)
        : null;
    try {
      await store.db.transaction(async (tx) => {
        await countPosts(tx, profile.id, account.plan, times.length, now);
        for (const [index, time] of times.entries()) {
          const id = ids[index]!;
          const at = time ?? now;
          const due = index === 0 ? status : held ? 'awaiting approval' : 'scheduled';
          const rows: NewPlatform[] = [];
          for (const entry of resolved) {
            const text = request.shortenLinks && entry.errors.length === 0 ? await shortenLinksIn(tx, entry.text, profile.id, this.#deps.publicUrl(), now) : entry.text;
            rows.push({
              postId: id,
              platform: entry.platform,
              status: entry.errors.length > 0 ? 'error' : 'queued',
              text,
              duplicateKey: normalizeForDuplicates(text),
              effectiveAt: at,
              error: entry.errors.length > 0 ? toError(entry.errors[0]!) : null,
              warnings: entry.warnings.length > 0 ? entry.warnings : null,
            });
          }
          await store.insertPost(
            tx,
            {
              id,
              profileId: profile.id,
              status: due,
              request: { ...request, ...(options.sealedTwitterApp && { [TWITTER_APP_FIELD]: options.sealedTwitterApp }) } as Record<string, unknown>,
              platforms,
              scheduleDate: autoRepost ? at : scheduleDate,
              requiresApproval: held,
              approved: false,
              paused: false,
              notes: request.notes ?? null,
              idempotencyKey: index === 0 ? (request.idempotencyKey ?? null) : null,
              autoRepostId,
              createdAt: now,
              mediaCopies,
            },
            rows,
          );
          for (const row of rows.filter((r) => r.status === 'queued')) {
            if (due === 'processing') {
              inline.push(await this.#deps.jobs.addLeased({ kind: JOB_PUBLISH, subject: id, payload: { platform: row.platform }, runAt: now }, now, this.#deps.leaseMs, tx));
            } else if (due === 'scheduled') {
              await this.#deps.jobs.add({ kind: JOB_PUBLISH, subject: id, payload: { platform: row.platform }, runAt: at }, now, tx);
            }
          }
        }
      });
    } catch (error) {
      if (request.idempotencyKey !== undefined && isUniqueViolation(error)) {
        // A simultaneous request with the same key won the insert: name its post.
        throw idempotencyError(request.idempotencyKey, (await store.findByIdempotencyKey(profile.id, request.idempotencyKey))?.id ?? null);
      }
      throw error;
    }

    const id = ids[0]!;
    // The post is stored: its Unsplash photos are used now (a refused or replayed request used none).
    if (unsplash) await trackUnsplashDownloads(unsplash.choice, unsplash.deps, (event, fields) => this.#deps.log?.(JSON.stringify({ event, ...fields })));
    if (inline.length > 0) await this.#runInline(inline);
    if (inline.length > 0 && request.firstComment) await this.#awaitFirstComments(id);
    const post = (await store.findPost(id))!;
    const rows = await store.listPlatforms(id);
    const response: PostResponse = {
      status: responseStatus(post.status, rows),
      errors: rows.filter((row) => row.status === 'error' && row.error).map((row) => platformError(row.platform, row.error!)),
      postIds: withPendingComments(rows.map(postIdEntry).filter((entry): entry is PostIdEntry => entry !== null), request),
      id,
      refId: profile.refId,
      post: postText,
      ...(scheduleDate !== null && { scheduleDate: iso(scheduleDate) }),
      ...(autoRepostId && scheduled && { scheduleDate: iso(seriesStart) }),
      ...(autoRepostId && { autoRepostId, autoRepost: ids.slice(1).map((repostId, i) => ({ id: repostId, autoRepostId, scheduleDate: iso(times[i + 1]!) })) }),
      ...unsplashCredits(request),
    };
    // Spec 7: every answer whose status is `error` is the whole envelope, also when some networks published.
    if (response.status === 'error' && response.errors[0]) Object.assign(response, envelopeOf(response.errors));
    // Nothing published: an error answer with the HTTP status of the first code's row (clients back off on 429/5xx).
    if (response.status === 'error' && response.postIds.length === 0) return { httpStatus: httpStatusOf(response.code ?? 400) as ContentfulStatusCode, body: { ...response, action: 'post' } };
    return { httpStatus: 200, body: response };
  }

  /** Runs the leased jobs of an immediate post now; whatever is not finished within the budget continues as a job. */
  async #runInline(jobs: Job[]): Promise<void> {
    const { engine, jobs: jobStore, clock } = this.#deps;
    const runs = Promise.all(
      jobs.map(async (job) => {
        let outcome: JobOutcome;
        try {
          outcome = await withLease(jobStore, job, this.#deps.leaseMs, () => engine.runPublishJob(job));
        } catch (error) {
          // Left leased: when the lease ends a worker resumes it (reconcile if a commit started).
          void error;
          return;
        }
        if (outcome.kind === 'done') {
          if (!outcome.recorded) await jobStore.complete(job, clock());
        } else if (outcome.kind === 'retry') await jobStore.reschedule(job, outcome.runAt, outcome.error ?? null, outcome.payload);
        else await jobStore.fail(job, clock(), outcome.error);
      }),
    );
    let timer: NodeJS.Timeout | undefined;
    const budget = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.#deps.inlineBudgetMs);
    });
    await Promise.race([runs, budget]);
    clearTimeout(timer);
  }

  /**
   * Spec 4.9 rule 5: for networks other than tiktok the answer carries the first comment's outcome, so it waits
   * the comment's delay (about 20 s) and the comment (the first-comment job, run by the worker). A comment still
   * pending after that shows `pending` and is reported on GET /api/post/:id.
   */
  async #awaitFirstComments(id: string): Promise<void> {
    const deadline = Date.now() + (this.#deps.firstCommentDelayMs ?? 20_000) + this.#deps.inlineBudgetMs;
    for (;;) {
      const rows = await this.#deps.store.listPlatforms(id);
      const waiting = rows.some((row) => row.platform !== 'tiktok' && row.status === 'success' && row.firstComment?.status === 'pending');
      if (!waiting || Date.now() >= deadline) return;
      await new Promise((resolve) => setTimeout(resolve, COMMENT_POLL_MS));
    }
  }

  /** What a stored post would send now (its stored texts, its media checked again) against a preview's hash. */
  async #assertStoredRendition(postId: string, request: PostRequest, expected: string): Promise<void> {
    const rows = (await this.#deps.store.listPlatforms(postId)).filter((row) => row.status === 'queued');
    const entries: ResolvedPlatform[] = rows.map((row) => ({ platform: row.platform, text: row.text, errors: [], warnings: [] }));
    if (this.#deps.media && hasMedia(request)) await checkMedia(request, entries, this.#deps.media);
    // The stored texts already hold their short links.
    assertRendition(expected, renditionsOf({ ...request, shortenLinks: false }, entries, this.#deps.publicUrl()), this.#deps.publicUrl());
  }

  /**
   * The `unsplash` field: its photos join the media URLs (after the post's own, like stock images) and their
   * credits are stored with the request. Resolved once, at create time.
   */
  async #resolveUnsplash(request: PostRequest): Promise<{ request: PostRequest; choice: UnsplashChoice; deps: UnsplashDeps } | null> {
    if (request.unsplash === undefined) return null;
    const media = this.#deps.media;
    const deps: UnsplashDeps = {
      fetch: media?.fetch ?? (() => Promise.reject(new Error('no media pipeline'))),
      settings: media?.unsplash?.() ?? unsplashSettings(this.#deps.publicUrl(), null, null),
    };
    const choice = await resolveUnsplash(request.unsplash, deps);
    if (isUnsplashProblem(choice)) throw new ApiError(choice.status, 164, choice.message, { action: 'post', details: choice.details });
    const mediaUrls = appendMediaUrls(request.mediaUrls, choice.mediaUrls);
    return { request: { ...request, mediaUrls, [UNSPLASH_ATTRIBUTION_FIELD]: choice.attribution } as PostRequest, choice, deps };
  }

  async #resolvePlatform(account: Account, profile: Profile, request: PostRequest, platform: Network, at: number): Promise<ResolvedPlatform> {
    const capabilities = PUBLISHING_CAPABILITIES[platform];
    let raw = typeof request.post === 'string' ? request.post : (request.post[platform] ?? request.post.default ?? '');
    if (request.autoHashtag) {
      const settings = typeof request.autoHashtag === 'object' ? request.autoHashtag : {};
      raw = addHashtags(raw, settings);
    }
    const text = applyLineBreaks(renderRichText(raw, platform), platform);
    const errors: PublishFailure[] = [];
    const social = await this.#deps.storage.linking.findSocialAccount(profile.id, platform);
    if (!social) {
      errors.push(fail(163, `No ${platform} account is linked to this profile.`));
      return { platform, text, errors, warnings: [] };
    }
    const personal = personalAccountRefusal(platform, social.accountType);
    if (personal) return { platform, text, errors: [personal], warnings: [] };
    const post: PlatformPost = {
      platform,
      text,
      mediaUrls: mediaUrlsFor(request as unknown as Record<string, unknown>, platform),
      isVideo: request.isVideo === true,
      // The adapters check their options at create time too (reddit's title and subreddit, twitter's longPost).
      options: networkOptionsFor(request as unknown as Record<string, unknown>, platform),
      postId: '',
      attemptKey: '',
    };
    const account$ = { platform, accountId: social.networkUserId, username: social.username, displayName: social.displayName, sandbox: true, tokens: async () => ({}) };
    errors.push(...this.#deps.adapters[platform].validate(post, account$));
    if (platform === 'youtube' && errors.length === 0) {
      const refused = await youtubeCategoryRefusal(this.#deps.youtubeCategories, profile.id, request.youTubeOptions);
      if (refused) errors.push(refused);
    }
    const warnings: ResolvedPlatform['warnings'] = [];
    let geoRestrictionsEligible = false;
    if (platform === 'threads' && request.threadsOptions?.allowCountries !== undefined && this.#deps.geoEligible) {
      const eligible = await this.#deps.geoEligible(profile.id);
      if (typeof eligible === 'object' && eligible !== null) errors.push(eligible);
      else geoRestrictionsEligible = eligible === true;
    }
    for (const issue of validateNetworkOptions(platform, request, { geoRestrictionsEligible })) {
      if (isWarning(issue)) warnings.push({ feature: issue.field ?? 'options', code: issue.code });
      else errors.push(fail(issue.code, issue.message, { ...issue.details, ...(issue.field && { field: issue.field }) }));
    }
    if (request.firstComment && !capabilities.firstComment.supported) errors.push(fail(101, `${platform} does not take a first comment.`));
    if (errors.length === 0 && capabilities.duplicateCheck !== 'none') {
      const key = normalizeForDuplicates(text);
      const candidates = await this.#deps.store.duplicateCandidates({
        profileId: profile.id,
        accountId: account.id,
        platform,
        at,
        windowMs: DUPLICATE_WINDOW_MS,
        duplicateKey: key,
        acrossAccount: capabilities.duplicateCheck === 'account',
      });
      const isNear = nearDuplicateMatcher(key);
      const duplicate = candidates.some((c) => c.duplicateKey === key || (c.sameProfile && isNear(c.duplicateKey)));
      if (duplicate) errors.push(fail(137, `Duplicate or similar content was posted on ${platform} within 24 hours of this post.`));
    }
    return { platform, text, errors, warnings };
  }

  async get(profile: Profile, id: string): Promise<PostRecord> {
    const post = await this.#deps.store.findPostOfProfile(profile.id, id);
    if (!post) throw notFound(id);
    return this.#record(post, profile, await this.#deps.store.listPlatforms(post.id));
  }

  #record(post: StoredPost, profile: Profile, rows: StoredPlatform[]): PostRecord {
    const request = post.request as unknown as PostRequest;
    const errors = rows.filter((row) => row.status === 'error' && row.error).map((row) => platformError(row.platform, row.error!));
    return {
      ...(post.status === 'error' && errors.length > 0 && envelopeOf(errors)),
      id: post.id,
      status: post.status,
      refId: profile.refId,
      post: typeof request.post === 'string' ? request.post : (request.post?.default ?? ''),
      platforms: post.platforms,
      postIds: withPendingComments(rows.map(postIdEntry).filter((entry): entry is PostIdEntry => entry !== null), request),
      errors,
      ...(post.scheduleDate !== null && { scheduleDate: iso(post.scheduleDate) }),
      created: iso(post.createdAt),
      requiresApproval: post.requiresApproval,
      approved: post.approved,
      scheduledPause: post.paused,
      ...(post.notes !== null && { notes: post.notes }),
      ...(post.autoRepostId && { autoRepostId: post.autoRepostId }),
      ...unsplashCredits(request),
      type: post.scheduleDate !== null ? 'schedule' : 'now',
      retried: post.retried,
    };
  }

  async history(profile: Profile, filter: Parameters<PostStore['listHistory']>[1], platforms: Network[] | null): Promise<PostRecord[]> {
    const posts = await this.#deps.store.listHistory(profile.id, filter);
    const chosen = platforms ? posts.filter((post) => post.platforms.some((p) => platforms.includes(p))) : posts;
    const platformsOf = await this.#deps.store.listPlatformsOfPosts(chosen.map((post) => post.id));
    return chosen.map((post) => this.#record(post, profile, platformsOf.get(post.id) ?? []));
  }

  /** `PATCH /api/post`: approve, pause/unpause, move, annotate a post that has not been sent. */
  async update(
    profile: Profile,
    change: { id: string; approved?: boolean; scheduleDate?: string; scheduledPause?: boolean; notes?: string; youTubeOptions?: Record<string, unknown>; expectedRenditionHash?: string },
  ): Promise<PostRecord> {
    const { store, jobs, clock } = this.#deps;
    const now = clock();
    const post = await store.findPostOfProfile(profile.id, change.id);
    if (!post) throw notFound(change.id);
    if (!EDITABLE_STATUSES.includes(post.status)) {
      throw badRequest(`Only a post awaiting approval, scheduled or paused can be changed; this one is ${post.status}.`, { status: post.status }, 'post');
    }
    let scheduleDate = post.scheduleDate;
    if (change.scheduleDate !== undefined) {
      const date = parseScheduleDate(change.scheduleDate);
      if (!date.ok) throw badRequest(date.message, { field: 'scheduleDate' }, 'post');
      if (date.epochMs > now + MAX_SCHEDULE_AHEAD_MS) throw badRequest('"scheduleDate" is more than two years ahead.', { field: 'scheduleDate' }, 'post');
      scheduleDate = date.epochMs;
    }
    // youTubeOptions (title, category, ...) may change until the post is sent; the category is checked now (4.3).
    let request = post.request;
    if (change.youTubeOptions !== undefined) {
      if (!post.platforms.includes('youtube')) throw badRequest('youTubeOptions applies only to a post for youtube.', { field: 'youTubeOptions' }, 'post');
      const youTubeOptions = { ...(post.request.youTubeOptions as Record<string, unknown> | undefined), ...change.youTubeOptions };
      const refused = await youtubeCategoryRefusal(this.#deps.youtubeCategories, profile.id, youTubeOptions);
      if (refused) throw new ApiError(400, refused.code, refused.message, { action: 'post', details: refused.details });
      request = { ...post.request, youTubeOptions };
    }
    if (change.approved === false) throw badRequest('"approved" can only release a held post (true).', { field: 'approved' }, 'post');
    if (change.expectedRenditionHash !== undefined) await this.#assertStoredRendition(post.id, request as PostRequest, change.expectedRenditionHash);
    const approved = post.approved || change.approved === true;
    const paused = change.scheduledPause ?? post.paused;
    // Spec 3: held until approved; paused until unpaused; then scheduled, or sent at once when its date has passed.
    const next: PostStatus = post.requiresApproval && !approved ? 'awaiting approval' : paused ? 'paused' : 'scheduled';
    await store.db.transaction(async (tx) => {
      const fields: Record<string, unknown> = { approved: approved ? 1 : 0, paused: paused ? 1 : 0, schedule_date: scheduleDate };
      if (change.notes !== undefined) fields.notes = change.notes;
      if (request !== post.request) fields.request = JSON.stringify(request);
      const due = next === 'scheduled' && (scheduleDate === null || scheduleDate <= now);
      const status: PostStatus = due ? 'processing' : next;
      if (!(await store.moveStatus(post.id, [post.status], status, now, tx, fields))) throw badRequest('The post changed meanwhile; read it and try again.', undefined, 'post');
      await jobs.cancelFor(post.id, now, JOB_PUBLISH, tx);
      await this.#deps.store.moveEffectiveAt(tx, post.id, scheduleDate ?? now);
      if (status === 'scheduled' || status === 'processing') {
        const queued = await tx.all(`SELECT platform FROM post_platforms WHERE post_id = ? AND status = 'queued'`, [post.id]);
        for (const row of queued) {
          await jobs.add({ kind: JOB_PUBLISH, subject: post.id, payload: { platform: row.platform }, runAt: status === 'processing' ? now : scheduleDate! }, now, tx);
        }
      }
    });
    return this.get(profile, post.id);
  }

  /**
   * `DELETE /api/post`: unsent posts are cancelled; sent ones are deleted on each network that can. Deleting a
   * tweet needs the X app headers (`sealedTwitterApp` throws 419 without them) and signs with that pair (5.6).
   */
  async remove(
    profile: Profile,
    ids: string[],
    sealedTwitterApp: () => string | null = () => null,
  ): Promise<{ id: string; status: 'deleted' | 'error'; deletedOn: Network[]; notDeletedOn: Network[]; message?: string }[]> {
    const { store, jobs, clock, engine } = this.#deps;
    const results = [];
    // Before anything is deleted: a post on twitter needs the app headers (419 otherwise, nothing changed).
    let twitterApp: string | null = null;
    for (const id of ids) {
      const post = await store.findPostOfProfile(profile.id, id);
      if (post && post.status !== 'deleted' && (await store.listPlatforms(post.id)).some((row) => row.platform === 'twitter' && row.status === 'success')) {
        twitterApp = sealedTwitterApp();
        break;
      }
    }
    for (const id of ids) {
      const found = await store.findPostOfProfile(profile.id, id);
      const post = found && twitterApp ? { ...found, request: { ...found.request, [TWITTER_APP_FIELD]: twitterApp } } : found;
      if (!post || post.status === 'deleted') {
        results.push({ id, status: 'error' as const, deletedOn: [], notDeletedOn: [], message: post ? 'The post was already deleted.' : 'No post with this id.' });
        continue;
      }
      const now = clock();
      await jobs.cancelFor(post.id, now);
      const deletedOn: Network[] = [];
      const notDeletedOn: Network[] = [];
      for (const row of await store.listPlatforms(post.id)) {
        if (row.status !== 'success' || !row.networkPostId) continue;
        const removed = await engine.removeOnNetwork(post, row).catch(() => false);
        if (removed) {
          await store.markPlatformDeleted(post.id, row.platform);
          deletedOn.push(row.platform);
        } else notDeletedOn.push(row.platform);
      }
      await store.moveStatus(post.id, [post.status], 'deleted', now, store.db, { deleted_at: now });
      results.push({
        id,
        status: 'deleted' as const,
        deletedOn,
        notDeletedOn,
        ...(notDeletedOn.length > 0 && { message: `Not deleted on ${notDeletedOn.join(', ')}: the network does not allow it through its API; delete it there.` }),
      });
    }
    return results;
  }

  async seriesIds(profile: Profile, autoRepostId: string): Promise<string[]> {
    return (await this.#deps.store.listSeries(profile.id, autoRepostId)).filter((post) => post.status !== 'deleted').map((post) => post.id);
  }

  /**
   * `PUT /api/post/retry`: only from `error`, once; the failed platforms are sent again as jobs. A retry of a
   * post that failed on twitter needs the X app headers (419 otherwise) and publishes with that pair (5.6).
   */
  async retry(profile: Profile, id: string, sealedTwitterApp: () => string | null = () => null): Promise<{ status: 'processing'; id: string; platforms: Network[] }> {
    const { store, jobs, clock } = this.#deps;
    const post = await store.findPostOfProfile(profile.id, id);
    if (!post) throw notFound(id);
    if (post.status !== 'error') throw badRequest(`Only a post in error can be retried; this one is ${post.status}.`, { status: post.status }, 'post');
    if (post.retried) throw badRequest('This post was retried once already; create a new post instead.', undefined, 'post');
    await assertNotSuspended(store.db, profile.id, 'post');
    const twitterFailed = (await store.listPlatforms(post.id)).some((row) => row.platform === 'twitter' && row.status === 'error');
    const twitterApp = twitterFailed ? sealedTwitterApp() : null;
    const fields: Record<string, unknown> = { retried: 1, ...(twitterApp && { request: JSON.stringify({ ...post.request, [TWITTER_APP_FIELD]: twitterApp }) }) };
    const now = clock();
    const platforms = await store.db.transaction(async (tx) => {
      if (!(await store.moveStatus(post.id, ['error'], 'processing', now, tx, fields))) throw badRequest('The post changed meanwhile.', undefined, 'post');
      const failed = await store.requeueFailed(tx, post.id);
      for (const platform of failed) await jobs.add({ kind: JOB_PUBLISH, subject: post.id, payload: { platform }, runAt: now }, now, tx);
      return failed;
    });
    return { status: 'processing', id: post.id, platforms };
  }
}

const COMMENT_POLL_MS = 100;

/** A platform whose first comment is not sent yet (tiktok until processing ends) shows it `pending` (4.9 rule 5). */
/** The credits of the post's Unsplash photos, as the answer shows them. */
function unsplashCredits(request: PostRequest): { unsplash?: UnsplashAttribution[] } {
  const credits = (request as Record<string, unknown>)[UNSPLASH_ATTRIBUTION_FIELD];
  return Array.isArray(credits) ? { unsplash: credits as UnsplashAttribution[] } : {};
}

function withPendingComments(entries: PostIdEntry[], request: PostRequest): PostIdEntry[] {
  if (!request.firstComment) return entries;
  return entries.map((entry) => (entry.firstComment ? entry : { ...entry, firstComment: { status: 'pending' } }));
}

/** The top-level envelope fields of an answer whose status is `error`: the first failing network's code. */
function envelopeOf(errors: PostPlatformError[]): { action: 'post'; code: number; message: string } {
  return { action: 'post', code: errors[0]!.code, message: errors[0]!.message };
}

function hasMedia(request: PostRequest): boolean {
  const media = request.mediaUrls;
  const given = Array.isArray(media) ? media.length > 0 : media !== undefined && Object.values(media).some((urls) => (urls?.length ?? 0) > 0);
  return given || (request.firstComment?.mediaUrls?.length ?? 0) > 0 || request.youTubeOptions?.thumbNail !== undefined;
}

/** Media checks of the platforms that passed everything else; their failures and warnings join the platform's. */
async function checkMedia(request: PostRequest, resolved: ResolvedPlatform[], media: MediaDeps): Promise<void> {
  const passing = resolved.filter((entry) => entry.errors.length === 0);
  const checks = await checkPostMedia(request, passing.map((entry) => entry.platform), media);
  for (const entry of passing) {
    const check = checks.get(entry.platform);
    if (!check) continue;
    entry.errors.push(...check.errors);
    entry.warnings.push(...check.warnings);
    entry.media = check.media;
  }
}

/** What each network that passed the checks would receive. */
function renditionsOf(request: PostRequest, resolved: ResolvedPlatform[], publicUrl: string): Renditions {
  const shorten = request.shortenLinks ? { publicUrl } : null;
  const renditions: Renditions = {};
  for (const entry of resolved) {
    if (entry.errors.length > 0) continue;
    const options = networkOptionsFor(request as unknown as Record<string, unknown>, entry.platform);
    renditions[entry.platform] = renditionOf({ platform: entry.platform, text: entry.text, options }, entry.media ?? [], shorten);
  }
  return renditions;
}

function toError(failure: PublishFailure): NonNullable<StoredPlatform['error']> {
  return { code: failure.code, message: failure.message, ...(failure.details && { details: failure.details }), ...(failure.retryAvailable && { retryAvailable: true }) };
}

function responseStatus(status: PostStatus, rows: StoredPlatform[]): PostResponse['status'] {
  if (status === 'awaiting approval' || status === 'scheduled' || status === 'paused') return status;
  if (rows.some((row) => row.status === 'error')) return 'error';
  if (status === 'processing' || rows.some((row) => row.status === 'queued' || row.status === 'processing')) return 'processing';
  return status === 'pending' ? 'pending' : 'success';
}

/** Spec 3 rule 3: refused whatever the earlier post became (deleted too); the answer names that post. */
function idempotencyError(key: string, existingId: string | null): ApiError {
  return new ApiError(400, 101, `A post with this idempotencyKey already exists for this profile${existingId ? `: ${existingId}` : ''}.`, {
    action: 'post',
    details: { field: 'idempotencyKey', idempotencyKey: key.slice(0, 64), ...(existingId && { id: existingId }) },
  });
}

export function notFound(id: string): ApiError {
  return new ApiError(404, 101, 'No post with this id for this profile.', { action: 'post', details: { id: id.slice(0, 64) } });
}

export type { PostPlatformError };
