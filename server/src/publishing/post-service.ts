/**
 * @module
 * The posts API's behaviour (spec 2.1, 2.2, 3, 4.8, 4.9), between the routes and the store/engine:
 * - create: validate the whole request; a scheduled (or held) post is checked on every platform and rejected whole
 *   if any fails, an immediate one continues on the platforms that pass. The post, its platform rows, its quota
 *   count and its jobs are written in ONE transaction (the idempotency key's unique index makes a simultaneous
 *   twin fail there), then an immediate post's attempts run inline within a budget.
 * - update (approve, pause/unpause via `scheduledPause`, scheduleDate, notes), delete (one, bulk, series), retry
 *   (only from `error`, once), get and history.
 * Its parts: the request-wide rules (create-request.ts), each platform's checks and renditions (platform-checks.ts),
 * the inline run of an immediate post (inline-run.ts), the answers (post-answer.ts).
 */
import { httpStatusOf, type Network } from '@social-link-kit/protocol';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { EDITABLE_STATUSES, type PostIdEntry, type PostRecord, type PostRequest, type PostResponse, type PostStatus } from '@social-link-kit/protocol/publishing/index.js';
import type { Job } from '../core/jobs/job-store.js';
import { ApiError, badRequest } from '../core/errors.js';
import type { Account, Profile } from '../core/db/storage-types.js';
import { newTimeOrderedId } from '../core/tokens.js';
import { JOB_PUBLISH, platformError, postIdEntry } from './engine.js';
import { countPosts } from './post-quota.js';
import { isUniqueViolation, type NewPlatform, type StoredPlatform } from './post-store.js';
import { findAnsweredPost } from './post-reads.js';
import { PostReadAnswers } from './post-read-answers.js';
import { youtubeCategoryRefusal } from './rules/youtube-category.js';
import { normalizeForDuplicates } from './rules/near-duplicate.js';
import { shortenLinksIn } from './short-links.js';
import { trackUnsplashDownloads } from './media/unsplash.js';
import { keepMediaCopies, type MediaCopies } from './post-media.js';
import { exceededBudget } from './capacity.js';
import { assertRendition, renditionHash, type Renditions } from './rendition.js';
import { acceptCreateRequest, acceptedScheduleDate, DAY_MS, type CreateRequestDeps } from './create-request.js';
import { checkMedia, hasMedia, renditionsOf, resolvePlatform, toError, type PlatformCheckDeps, type ResolvedPlatform } from './platform-checks.js';
import { awaitFirstComments, runInline, type InlineRunDeps } from './inline-run.js';
import { envelopeOf, iso, notFound, postRecord, responseStatus, unsplashCredits, withPendingComments } from './post-answer.js';
import { assertNotSuspended, linkedAccountsUnlessSuspended } from '../accounts/suspension.js';

export interface PostServiceDeps extends CreateRequestDeps, PlatformCheckDeps, InlineRunDeps {
  /** Token-free log lines. */
  log?: (line: string) => void;
}

/**
 * The stored request's fields that seal the integrator's own app for the networks given (networks/app-credentials.ts),
 * empty when none of them needs one; throws the network's 419 when the request did not send it.
 */
export type AppFields = (platforms: Network[]) => Record<string, unknown>;

export class PostService {
  readonly #deps: PostServiceDeps;

  /** `GET /api/post/:id` and `GET /api/history` as JSON text (post-read-answers.ts). */
  readonly reads: PostReadAnswers;

  constructor(deps: PostServiceDeps) {
    this.#deps = deps;
    this.reads = new PostReadAnswers(deps.store.db);
  }

  /** `POST /api/post` (and with `dryRun`, `POST /api/validate/post`: everything but storing and publishing). */
  async create(
    account: Account,
    profile: Profile,
    body: Record<string, unknown>,
    options: { dryRun?: boolean; appFields?: Record<string, unknown> } = {},
  ): Promise<{ httpStatus: ContentfulStatusCode; body: PostResponse; preview?: { renditions: Renditions; renditionHash: string } }> {
    const { clock, store } = this.#deps;
    const now = clock();
    // A suspended profile publishes nothing (spec 7, 249's repeat): refused before anything is resolved or fetched.
    const linked = await linkedAccountsUnlessSuspended(store.db, profile.id, 'post');
    const { request, unsplash, platforms, scheduleDate, autoRepost, seriesStart } = await acceptCreateRequest(this.#deps, account, profile, body, now);
    const earlier = request.idempotencyKey !== undefined ? await store.findByIdempotencyKey(profile.id, request.idempotencyKey) : null;
    if (earlier) throw idempotencyError(request.idempotencyKey!, earlier.id);

    const effectiveAt = scheduleDate ?? seriesStart;
    const held = request.requiresApproval === true;
    // With autoRepost.startDate the whole series starts there (2.2): the first post is scheduled, not sent now.
    const scheduled = (scheduleDate !== null && scheduleDate > now) || (autoRepost !== undefined && seriesStart > now);
    const resolved = await Promise.all(platforms.map((platform) => resolvePlatform(this.#deps, account, profile, request, platform, effectiveAt, linked.get(platform) ?? null)));
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
    // Time-ordered ids (tokens.ts): a post's creation time is in its answers already and its id is no capability (every
    // read checks the key and profile), so new rows land at the end of the id indexes, not on random pages (issue 31).
    const autoRepostId = autoRepost ? newTimeOrderedId('ar_', now) : null;
    const status: PostStatus = held ? 'awaiting approval' : scheduled ? 'scheduled' : 'processing';
    const ids = times.map(() => newTimeOrderedId('post_', now));
    const inline: Job[] = [];
    /** The first post's platform rows as written: what a post with no attempt run inline answers with (below). */
    let written: StoredPlatform[] = [];
    // Media protection (4.9 rule 7): a post sent later keeps copies of its images, published if the origin fails then.
    const mediaCopies: MediaCopies | null =
      this.#deps.media && (scheduled || held || autoRepost) && hasMedia(request)
        ? await keepMediaCopies(request, resolved.filter((entry) => entry.errors.length === 0).map((entry) => entry.platform), this.#deps.media)
        : null;
    // An immediate post's accept waits for no sync of its own (issue 31): its attempts' "commit started" sync
    // covers it before any network call, and the answer waits until it is durable (below).
    const acceptDurability = status === 'processing' ? 'process-crash' : 'power-loss';
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
          const stored = await store.insertPost(
            tx,
            {
              id,
              profileId: profile.id,
              status: due,
              request: { ...request, ...options.appFields } as Record<string, unknown>,
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
          if (index === 0) written = stored;
          for (const row of rows.filter((r) => r.status === 'queued')) {
            if (due === 'processing') {
              inline.push(await this.#deps.jobs.addLeased({ kind: JOB_PUBLISH, subject: id, payload: { platform: row.platform }, runAt: now }, now, this.#deps.leaseMs, tx));
            } else if (due === 'scheduled') {
              await this.#deps.jobs.add({ kind: JOB_PUBLISH, subject: id, payload: { platform: row.platform }, runAt: at }, now, tx);
            }
          }
        }
      }, acceptDurability);
    } catch (error) {
      if (request.idempotencyKey !== undefined && isUniqueViolation(error)) {
        // A simultaneous request with the same key won the insert: name its post.
        throw idempotencyError(request.idempotencyKey, (await store.findByIdempotencyKey(profile.id, request.idempotencyKey))?.id ?? null);
      }
      throw error;
    }

    try {
      const id = ids[0]!;
      // The post is stored (durably, before anything leaves): its Unsplash photos are used now (a refused or
      // replayed request used none).
      if (unsplash && acceptDurability === 'process-crash') await store.db.durable();
      if (unsplash) await trackUnsplashDownloads(unsplash.choice, unsplash.deps, (event, fields) => this.#deps.log?.(JSON.stringify({ event, ...fields })));
      if (inline.length > 0) await runInline(this.#deps, inline);
      if (inline.length > 0 && request.firstComment) await awaitFirstComments(this.#deps, id);
      // A post with no attempt run inline (scheduled, held) is as it was written until its time comes: its answer
      // needs no read (issue 31). One whose attempts ran is read again for their outcomes.
      const { status: postStatus, rows } = inline.length > 0 ? { status: (await store.findPost(id))!.status, rows: await store.listPlatforms(id) } : { status, rows: written };
      const response: PostResponse = {
        status: responseStatus(postStatus, rows),
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
    } finally {
      // Whatever the answer (an error too), it leaves only once the accept survives a power loss.
      if (acceptDurability === 'process-crash') await store.db.durable();
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

  async get(profile: Profile, id: string): Promise<PostRecord> {
    const found = await findAnsweredPost(this.#deps.store.db, profile.id, id);
    if (!found) throw notFound(id);
    return postRecord(found.post, profile, found.platforms);
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
    if (change.scheduleDate !== undefined) scheduleDate = acceptedScheduleDate(change.scheduleDate, 'scheduleDate', now);
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
   * `DELETE /api/post`: unsent posts are cancelled; sent ones are deleted on each network that can. A network
   * that signs with the integrator's own app (X, spec 5.6) deletes with the app this request sent: `appFields`
   * seals it, or refuses (419) before anything is deleted.
   */
  async remove(
    profile: Profile,
    ids: string[],
    appFields: AppFields = () => ({}),
  ): Promise<{ id: string; status: 'deleted' | 'error'; deletedOn: Network[]; notDeletedOn: Network[]; message?: string }[]> {
    const { store, jobs, clock, engine } = this.#deps;
    const results = [];
    const published = new Set<Network>();
    for (const id of ids) {
      const post = await store.findPostOfProfile(profile.id, id);
      if (!post || post.status === 'deleted') continue;
      for (const row of await store.listPlatforms(post.id)) if (row.status === 'success') published.add(row.platform);
    }
    const apps = appFields([...published]);
    for (const id of ids) {
      const found = await store.findPostOfProfile(profile.id, id);
      const post = found && Object.keys(apps).length > 0 ? { ...found, request: { ...found.request, ...apps } } : found;
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
   * `PUT /api/post/retry`: only from `error`, once; the failed platforms are sent again as jobs, those that sign
   * with the integrator's own app with the one this request sent (`appFields`, 419 without it; spec 5.6).
   */
  async retry(profile: Profile, id: string, appFields: AppFields = () => ({})): Promise<{ status: 'processing'; id: string; platforms: Network[] }> {
    const { store, jobs, clock } = this.#deps;
    const post = await store.findPostOfProfile(profile.id, id);
    if (!post) throw notFound(id);
    if (post.status !== 'error') throw badRequest(`Only a post in error can be retried; this one is ${post.status}.`, { status: post.status }, 'post');
    if (post.retried) throw badRequest('This post was retried once already; create a new post instead.', undefined, 'post');
    await assertNotSuspended(store.db, profile.id, 'post');
    const apps = appFields((await store.listPlatforms(post.id)).filter((row) => row.status === 'error').map((row) => row.platform));
    const fields: Record<string, unknown> = { retried: 1, ...(Object.keys(apps).length > 0 && { request: JSON.stringify({ ...post.request, ...apps }) }) };
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

/** Spec 3 rule 3: refused whatever the earlier post became (deleted too); the answer names that post. */
function idempotencyError(key: string, existingId: string | null): ApiError {
  return new ApiError(400, 101, `A post with this idempotencyKey already exists for this profile${existingId ? `: ${existingId}` : ''}.`, {
    action: 'post',
    details: { field: 'idempotencyKey', idempotencyKey: key.slice(0, 64), ...(existingId && { id: existingId }) },
  });
}

