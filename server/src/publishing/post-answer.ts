/**
 * @module
 * How a post is answered (spec 2.1, 3, 7): its record (`GET /api/post/:id`, history), the status a create answer
 * shows, the envelope of an answer in error, first comments still pending, Unsplash credits, and 404.
 */
import type { Network } from '@social-link-kit/protocol';
import type { PostIdEntry, PostPlatformError, PostRecord, PostRequest, PostResponse, PostStatus, UnsplashAttribution } from '@social-link-kit/protocol/publishing/index.js';
import { ApiError } from '../core/errors.js';
import type { Profile } from '../core/db/storage-types.js';
import { platformError, postIdEntry } from './engine.js';
import type { StoredPlatform } from './post-store.js';
import type { AnsweredPlatform, AnsweredPost, AnsweredPostRows } from './post-reads.js';
import { quotaError } from './post-quota.js';
import { UNSPLASH_ATTRIBUTION_FIELD } from './media/unsplash.js';

export function iso(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** A stored post as `GET /api/post/:id` and the history answer it. */
export function postRecord(post: AnsweredPost, profile: Profile, rows: AnsweredPlatform[]): PostRecord {
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

/** The credits of the post's Unsplash photos, as the answer shows them. */
export function unsplashCredits(request: PostRequest): { unsplash?: UnsplashAttribution[] } {
  const credits = (request as Record<string, unknown>)[UNSPLASH_ATTRIBUTION_FIELD];
  return Array.isArray(credits) ? { unsplash: credits as UnsplashAttribution[] } : {};
}

/** A platform whose first comment is not sent yet (tiktok until processing ends) shows it `pending` (4.9 rule 5). */
export function withPendingComments(entries: PostIdEntry[], request: PostRequest): PostIdEntry[] {
  if (!request.firstComment) return entries;
  return entries.map((entry) => (entry.firstComment ? entry : { ...entry, firstComment: { status: 'pending' } }));
}

/** The top-level envelope fields of an answer whose status is `error`: the first failing network's code. */
export function envelopeOf(errors: PostPlatformError[]): { action: 'post'; code: number; message: string } {
  return { action: 'post', code: errors[0]!.code, message: errors[0]!.message };
}

/** The status a create answer shows for the post and its platform rows. */
export function responseStatus(status: PostStatus, rows: StoredPlatform[]): PostResponse['status'] {
  if (status === 'awaiting approval' || status === 'scheduled' || status === 'paused') return status;
  if (rows.some((row) => row.status === 'error')) return 'error';
  if (status === 'processing' || rows.some((row) => row.status === 'queued' || row.status === 'processing')) return 'processing';
  return status === 'pending' ? 'pending' : 'success';
}

export function notFound(id: string): ApiError {
  return new ApiError(404, 101, 'No post with this id for this profile.', { action: 'post', details: { id: id.slice(0, 64) } });
}

/** A post read's answer (`GET /api/post/:id`): 106 once the month's quota is used (spec 7), 404 without the post. */
export function postAnswerText(read: { quota: number; count: number; found: AnsweredPostRows | null }, profile: Profile, id: string): string {
  if (read.count >= read.quota) throw quotaError(read.quota);
  if (!read.found) throw notFound(id);
  return JSON.stringify(postRecord(read.found.post, profile, read.found.platforms));
}

/** A history page's answer; `platforms` picks among the page's posts (after the limit, as always). */
export function historyText(page: AnsweredPostRows[], profile: Profile, platforms: Network[] | null): string {
  const chosen = platforms ? page.filter(({ post }) => post.platforms.some((p) => platforms.includes(p))) : page;
  const history = chosen.map(({ post, platforms: rows }) => postRecord(post, profile, rows));
  return JSON.stringify({ status: 'success', refId: profile.refId, count: history.length, history });
}
