/**
 * @module
 * The twitter (X) publishing adapter: the X API v2 at `ctx.baseUrl` (the sandbox X API on loopback, or
 * api.x.com), every request signed with OAuth 1.0a from the integrator's own app (`ctx.appCredentials()`, from the
 * request's `X-Twitter-OAuth1-Api-Key/-Secret`) and the user's access token and secret from the link.
 * - validate: 280 weighted characters (URLs 23, CJK and emoji 2); `longPost` raises it to 25,000 for a single post;
 *   longer text becomes a reply chain of parts ≤275 (more than 30 → 275); 4 images or 1 video/GIF.
 * - prepare: chunked media upload, `POST /2/media/upload` INIT → APPEND (≤4 MB segments, multipart) → FINALIZE →
 *   STATUS while `processing_info` says so; the media ids are kept, so a resumed attempt does not upload again.
 * - commit: `POST /2/tweets {text, media: {media_ids}}`, then each further part as a reply
 *   (`reply.in_reply_to_tweet_id`) to the one before, the ids so far stored before each part (ctx.saveProgress), so
 *   a cut thread is reconciled part by part and resumed, and a thread failing part way is reported as partly
 *   published with the parts' ids. `subscribersOnly` → `reply_settings: "subscribers"`.
 * - reconcile: the user's tweets (`GET /2/users/{id}/tweets`, paged by `pagination_token` back to the commit's start)
 *   with the same first text, not recorded by another post (reconcile-by-identity.ts): X refuses exact duplicates, so a
 *   match is the interrupted commit's tweet.
 * - remove: `DELETE /2/tweets/{id}` for every part; comment: a reply to the last part.
 * A linked account holding only an OAuth 2.0 token (linked before own credentials) gives 423, legacy access.
 */
import { measureText } from '../text/text-length.js';
import { confirmStoredResult } from '../confirm-stored-result.js';
import { splitIntoThread } from '../text/thread-split.js';
import type { CommitResult, PlatformPost, PreparedState, PublishAdapter, PublishContext, PublishDone, PublishFailure } from '../publish-adapter.js';
import { classifyXError } from './classify.js';
import type { OAuth1Credentials } from './oauth1.js';
import { callX, type XAnswer } from './x-api.js';
import { twitterEngagement } from './engagement.js';
import { credentialsOf } from './credentials.js';
import { findByIdentity } from '../reconcile-by-identity.js';
import { failure, isFailure } from '../kit.js';

export const TWITTER_MAX_WEIGHTED = 280;
export const TWITTER_LONG_POST_MAX = 25_000;
export const TWITTER_THREAD_PART = 275;
export const TWITTER_MAX_THREAD_POSTS = 30;
export const TWITTER_MAX_IMAGES = 4;
/** APPEND segments stay under X's 5 MB per request. */
export const TWITTER_SEGMENT_BYTES = 4 * 1024 * 1024;
/** Media STATUS polls before giving up (each waits `check_after_secs`). */
const MAX_STATUS_POLLS = 60;

interface TwitterPrepared extends PreparedState {
  parts: string[];
  mediaIds: string[];
  longPostIgnored: boolean;
  /** The ids of the parts already on X, in order (a commit's progress, stored before each next part). */
  partIds?: string[];
  /** The part whose send started with no id recorded: reconcile looks it up. */
  partStarted?: number;
}

const VIDEO_URL = /\.(mp4|mov|m4v)(\?|#|$)/i;

/** The parts the text is published as: one post, or a reply chain. */
export function partsOf(post: PlatformPost): { parts: string[]; longPostIgnored: boolean } {
  const length = measureText(post.text, 'weighted');
  if (length <= TWITTER_MAX_WEIGHTED) return { parts: [post.text], longPostIgnored: false };
  if (post.options.longPost === true && length <= TWITTER_LONG_POST_MAX) return { parts: [post.text], longPostIgnored: false };
  // Spec 7 (111): longPost on a thread is ignored with a warning.
  return { parts: splitIntoThread(post.text, TWITTER_THREAD_PART, 'weighted'), longPostIgnored: post.options.longPost === true };
}

function validateTwitter(post: PlatformPost): PublishFailure[] {
  const issues: PublishFailure[] = [];
  if (post.text.trim() === '' && post.mediaUrls.length === 0) issues.push(failure(101, 'twitter posts need text or media.'));
  const { parts } = partsOf(post);
  if (parts.length > TWITTER_MAX_THREAD_POSTS) {
    issues.push(failure(275, `The text would need ${parts.length} posts as a twitter thread; at most ${TWITTER_MAX_THREAD_POSTS}.`, { details: { parts: parts.length } }));
  }
  const videos = post.mediaUrls.filter((url) => VIDEO_URL.test(url)).length + (post.isVideo && !post.mediaUrls.some((url) => VIDEO_URL.test(url)) ? 1 : 0);
  if (post.mediaUrls.length > TWITTER_MAX_IMAGES) issues.push(failure(164, `twitter takes at most ${TWITTER_MAX_IMAGES} images in one post.`));
  if (videos > 0 && post.mediaUrls.length > 1) issues.push(failure(164, 'twitter takes one video alone, without other media.'));
  for (const key of ['longPost', 'subscribersOnly', 'longVideo']) {
    if (post.options[key] !== undefined && typeof post.options[key] !== 'boolean') issues.push(failure(101, `twitterOptions.${key} must be true or false.`));
  }
  return issues;
}

function mediaIdOf(answer: XAnswer): string | null {
  const data = answer.json.data as { id?: unknown } | undefined;
  const id = data?.id ?? answer.json.media_id_string;
  return typeof id === 'string' && /^\d{1,30}$/.test(id) ? id : null;
}

function processingOf(answer: XAnswer): { state: string; checkAfterSecs: number; error?: string } | null {
  const data = (answer.json.data ?? answer.json) as { processing_info?: { state?: unknown; check_after_secs?: unknown; error?: { message?: unknown } } };
  const info = data.processing_info;
  if (!info || typeof info.state !== 'string') return null;
  const checkAfterSecs = typeof info.check_after_secs === 'number' ? Math.min(Math.max(info.check_after_secs, 1), 30) : 5;
  return { state: info.state, checkAfterSecs, ...(typeof info.error?.message === 'string' && { error: info.error.message }) };
}

/** Downloads one media URL and uploads it in segments; returns the media id. */
async function uploadMedia(ctx: PublishContext, credentials: OAuth1Credentials, url: string): Promise<string | PublishFailure> {
  let bytes: Buffer;
  let mediaType: string;
  try {
    const response = await ctx.fetch(url);
    if (!response.ok) return failure(164, `The media ${url} could not be read (HTTP ${response.status}).`, { retryAvailable: response.status >= 500 });
    mediaType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    bytes = Buffer.from(await response.arrayBuffer());
  } catch (error) {
    return failure(164, `The media ${url} could not be read: ${error instanceof Error ? error.message : String(error)}`, { retryAvailable: true });
  }
  if (!/^(image|video)\//.test(mediaType)) return failure(164, `${url} is neither an image nor a video (${mediaType || 'no content type'}).`);
  const category = mediaType === 'image/gif' ? 'tweet_gif' : mediaType.startsWith('video/') ? (ctx.post.options.longVideo === true ? 'amplify_video' : 'tweet_video') : 'tweet_image';
  const init = await callX(ctx, credentials, 'POST', '/2/media/upload', {
    form: { command: 'INIT', total_bytes: String(bytes.byteLength), media_type: mediaType, media_category: category },
  });
  const mediaId = init.status >= 200 && init.status < 300 ? mediaIdOf(init) : null;
  if (!mediaId) return init.status >= 200 && init.status < 300 ? failure(164, 'twitter did not return a media id.', { retryAvailable: true }) : classifyXError(init, ctx.now(), 'media');
  for (let index = 0, offset = 0; offset < bytes.byteLength; index++, offset += TWITTER_SEGMENT_BYTES) {
    const form = new FormData();
    form.set('command', 'APPEND');
    form.set('media_id', mediaId);
    form.set('segment_index', String(index));
    form.set('media', new Blob([new Uint8Array(bytes.subarray(offset, offset + TWITTER_SEGMENT_BYTES))]), 'media');
    const append = await callX(ctx, credentials, 'POST', '/2/media/upload', { multipart: form });
    if (append.status < 200 || append.status >= 300) return classifyXError(append, ctx.now(), 'media');
  }
  const finalize = await callX(ctx, credentials, 'POST', '/2/media/upload', { form: { command: 'FINALIZE', media_id: mediaId } });
  if (finalize.status < 200 || finalize.status >= 300) return classifyXError(finalize, ctx.now(), 'media');
  let processing = processingOf(finalize);
  for (let polls = 0; processing && processing.state !== 'succeeded'; polls++) {
    if (processing.state === 'failed') return failure(164, `twitter could not process the media: ${processing.error ?? 'processing failed'}.`);
    if (polls >= MAX_STATUS_POLLS) return failure(164, 'twitter did not finish processing the media in time.', { retryAvailable: true });
    // X asks how long to wait before the next STATUS (check_after_secs); this wait is the network's, not a test's.
    await new Promise((resolve) => setTimeout(resolve, processing!.checkAfterSecs * 1000));
    const status = await callX(ctx, credentials, 'GET', `/2/media/upload?command=STATUS&media_id=${mediaId}`);
    if (status.status < 200 || status.status >= 300) return classifyXError(status, ctx.now(), 'media');
    processing = processingOf(status) ?? { state: 'succeeded', checkAfterSecs: 0 };
  }
  return mediaId;
}

function postUrlOf(ctx: PublishContext, id: string): string {
  if (ctx.account.sandbox) return `${ctx.baseUrl.replace(/\/+$/, '')}/i/web/status/${id}`;
  return ctx.account.username ? `https://x.com/${encodeURIComponent(ctx.account.username)}/status/${id}` : `https://x.com/i/web/status/${id}`;
}

async function createTweet(ctx: PublishContext, credentials: OAuth1Credentials, payload: Record<string, unknown>): Promise<string | PublishFailure> {
  const answer = await callX(ctx, credentials, 'POST', '/2/tweets', { json: payload });
  const id = (answer.json.data as { id?: unknown } | undefined)?.id;
  if (answer.status >= 200 && answer.status < 300 && typeof id === 'string') return id;
  if (answer.status >= 200 && answer.status < 300) return failure(111, 'twitter accepted the post but its answer had no id; check the account before retrying.', { details: { outcome: 'unknown' } });
  return classifyXError(answer, ctx.now());
}

/** A thread that failed after some of its parts went out: an error naming the parts on X, never sent again. */
function partlyPublished(cause: PublishFailure, ids: string[], total: number): PublishFailure {
  return {
    ...cause,
    retryAvailable: false,
    message: `The twitter thread was partly published: ${ids.length} of ${total} posts are on X (${ids.join(', ')}); the rest failed: ${cause.message}`,
    details: { ...cause.details, partlyPublished: true, publishedIds: ids, parts: total },
  };
}

/**
 * One part of an interrupted commit, by identity (reconcile-by-identity.ts): the user's tweets paged back to the
 * commit's start with the part's text, replying to the part before (the first part replies to nothing).
 */
async function findPart(ctx: PublishContext, credentials: OAuth1Credentials, text: string, replyTo: string | null): Promise<string | null | PublishFailure> {
  const wanted = comparable(text);
  const user = encodeURIComponent(ctx.account.accountId);
  const found = await findByIdentity(
    ctx,
    async (token) => {
      const answer = await callX(ctx, credentials, 'GET', `/2/users/${user}/tweets?max_results=100&tweet.fields=created_at,referenced_tweets${token ? `&pagination_token=${encodeURIComponent(token)}` : ''}`);
      if (answer.status !== 200) return classifyXError(answer, ctx.now());
      const meta = answer.json.meta as { next_token?: unknown } | undefined;
      return { items: Array.isArray(answer.json.data) ? (answer.json.data as Record<string, unknown>[]) : [], next: typeof meta?.next_token === 'string' ? meta.next_token : null };
    },
    (tweet) => {
      if (typeof tweet.id !== 'string' || typeof tweet.text !== 'string') return null;
      const references = Array.isArray(tweet.referenced_tweets) ? (tweet.referenced_tweets as { type?: unknown; id?: unknown }[]) : [];
      const repliedTo = references.find((reference) => reference.type === 'replied_to')?.id ?? null;
      return { id: tweet.id, createdAt: Date.parse(String(tweet.created_at)), matches: comparable(tweet.text) === wanted && (replyTo === null || repliedTo === replyTo) };
    },
  );
  return found === null || isFailure(found) ? found : found.id;
}

/** X returns text HTML-escaped and with links shortened: compare what survives both. */
function comparable(text: string): string {
  return text
    .replaceAll('&amp;', '&')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replace(/https?:\/\/\S+/g, '<link>')
    .replace(/\s+/g, ' ')
    .trim();
}

export const twitterPublishAdapter: PublishAdapter = {
  platform: 'twitter',
  ...twitterEngagement,

  validate: (post) => validateTwitter(post),

  async prepare(ctx, previous) {
    const issues = validateTwitter(ctx.post);
    if (issues.length > 0) return issues[0]!;
    if (previous && Array.isArray(previous.parts) && Array.isArray(previous.mediaIds)) return previous;
    const credentials = await credentialsOf(ctx);
    if (isFailure(credentials)) return credentials;
    const mediaIds: string[] = [];
    for (const url of ctx.post.mediaUrls) {
      const id = await uploadMedia(ctx, credentials, url);
      if (isFailure(id)) return id;
      mediaIds.push(id);
    }
    const prepared: TwitterPrepared = { ...partsOf(ctx.post), mediaIds };
    return prepared;
  },

  async commit(ctx, state): Promise<CommitResult> {
    const prepared = state as TwitterPrepared;
    const credentials = await credentialsOf(ctx);
    if (isFailure(credentials)) return credentials;
    // A resumed commit (a thread cut by a crash, reconciled) goes on from the first part not on X.
    const ids = [...(prepared.partIds ?? [])];
    for (let index = ids.length; index < prepared.parts.length; index++) {
      const text = prepared.parts[index]!;
      const payload: Record<string, unknown> = {
        ...(text !== '' && { text }),
        ...(index === 0 && prepared.mediaIds.length > 0 && { media: { media_ids: prepared.mediaIds } }),
        ...(index > 0 && { reply: { in_reply_to_tweet_id: ids[index - 1] } }),
        ...(ctx.post.options.subscribersOnly === true && { reply_settings: 'subscribers' }),
      };
      // Each part is an irreversible call: the parts out so far, and this one as started, are stored before it.
      if (index > 0) await ctx.saveProgress?.({ ...prepared, partIds: ids, partStarted: index });
      const id = await createTweet(ctx, credentials, payload);
      if (isFailure(id)) return ids.length === 0 ? id : partlyPublished(id, ids, prepared.parts.length);
      ids.push(id);
      if (index < prepared.parts.length - 1) ctx.step?.('between-thread-parts');
    }
    const done: PublishDone = { kind: 'done', id: ids.join(','), postUrl: postUrlOf(ctx, ids[0]!) };
    if (prepared.longPostIgnored) done.warnings = [{ feature: 'twitterOptions.longPost', code: 111 }];
    return done;
  },

  confirm: confirmStoredResult('twitter'),

  async reconcile(ctx, state) {
    const prepared = state as TwitterPrepared;
    const credentials = await credentialsOf(ctx);
    if (isFailure(credentials)) return credentials;
    // Part by part: the parts recorded as out, then the one whose send started, looked up as a reply to the one before.
    const ids = [...(prepared.partIds ?? [])];
    const unknown = ids.length === 0 ? 0 : prepared.partStarted === ids.length ? ids.length : null;
    if (unknown !== null && unknown < prepared.parts.length) {
      const found = await findPart(ctx, credentials, prepared.parts[unknown]!, ids[unknown - 1] ?? null);
      if (isFailure(found)) return ids.length === 0 ? found : partlyPublished(found, ids, prepared.parts.length);
      if (found) ids.push(found);
    }
    if (ids.length === 0) return null;
    if (ids.length < prepared.parts.length) {
      // The thread stopped part way: what is out is stored, and the commit runs again from the next part.
      await ctx.saveProgress?.({ ...prepared, partIds: ids, partStarted: undefined });
      return null;
    }
    const done: PublishDone = { kind: 'done', id: ids.join(','), postUrl: postUrlOf(ctx, ids[0]!) };
    if (prepared.longPostIgnored) done.warnings = [{ feature: 'twitterOptions.longPost', code: 111 }];
    return done;
  },

  async remove(ctx, networkPostId) {
    const credentials = await credentialsOf(ctx);
    if (isFailure(credentials)) return false;
    let removed = true;
    for (const id of networkPostId.split(',')) {
      if (!/^\d{1,30}$/.test(id)) return false;
      const answer = await callX(ctx, credentials, 'DELETE', `/2/tweets/${id}`);
      // Already gone counts as deleted.
      if (answer.status !== 200 && answer.status !== 404) removed = false;
    }
    return removed;
  },

  async comment(ctx, networkPostId, text, mediaUrls) {
    const credentials = await credentialsOf(ctx);
    if (isFailure(credentials)) return credentials;
    const mediaIds: string[] = [];
    for (const url of mediaUrls) {
      const id = await uploadMedia(ctx, credentials, url);
      if (isFailure(id)) return id;
      mediaIds.push(id);
    }
    const parentId = networkPostId.split(',').at(-1)!;
    const id = await createTweet(ctx, credentials, {
      text,
      reply: { in_reply_to_tweet_id: parentId },
      ...(mediaIds.length > 0 && { media: { media_ids: mediaIds } }),
    });
    return isFailure(id) ? id : { kind: 'done', id, postUrl: postUrlOf(ctx, id) };
  },
};
