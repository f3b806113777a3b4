/**
 * @module
 * The pinterest publishing adapter: Pinterest API v5 (`ctx.baseUrl`: the sandbox on loopback, or
 * api.pinterest.com) with the member's bearer token. A pin needs media. `pinterestOptions`: `boardId` (else the
 * account's first board, `GET /v5/boards`), `title` (≤100), `link`, `altText` (≤500). The post text is the description
 * (≤500). `aiDisclosures` is checked by the core (an invalid value is warning 521 and the pin goes without it).
 * - images are pulled by Pinterest: `media_source` `image_url`, or `multiple_image_urls` for 2-5;
 * - a video is pushed: `POST /v5/media {media_type: video}` → upload the file to `upload_url` with
 *   `upload_parameters` (a form post) → `GET /v5/media/{id}` until `succeeded` → `media_source` `video_id` with a
 *   cover image (`pinterestOptions.thumbNail`, else the first image URL given);
 * - commit: `POST /v5/pins` → 201 `{id}`; reconcile: the board's pins (`GET /v5/boards/{id}/pins`, paged by `bookmark`
 *   back to the commit's start) with the same title, description, link and alt text (reconcile-by-identity.ts);
 *   remove: `DELETE /v5/pins/{id}`.
 */
import type { CommitResult, PlatformPost, PreparedState, PublishAdapter, PublishContext, PublishFailure } from '../publish-adapter.js';
import { confirmStoredResult } from '../confirm-stored-result.js';
import { classifyPinterestError } from './classify.js';
import { callPinterest } from './pinterest-api.js';
import { oauth2RefreshGrant } from '../oauth/refresh-grant.js';
import { findByIdentity } from '../reconcile-by-identity.js';
import { accessTokenOf as tokenOf, failure, isFailure } from '../kit.js';

export const PINTEREST_TITLE_MAX = 100;
export const PINTEREST_DESCRIPTION_MAX = 500;
export const PINTEREST_MAX_IMAGES = 5;
const MAX_MEDIA_POLLS = 30;

interface PinterestPrepared extends PreparedState {
  pin: Record<string, unknown>;
}

const VIDEO_URL = /\.(mp4|mov|m4v)(\?|#|$)/i;
const isVideoUrl = (post: PlatformPost, url: string) => VIDEO_URL.test(url) || (post.isVideo && post.mediaUrls.length === 1);

function validatePinterest(post: PlatformPost): PublishFailure[] {
  const issues: PublishFailure[] = [];
  const options = post.options;
  if (post.mediaUrls.length === 0) issues.push(failure(101, 'pinterest pins need an image or a video.'));
  if ([...post.text].length > PINTEREST_DESCRIPTION_MAX) issues.push(failure(101, `pinterest descriptions are at most ${PINTEREST_DESCRIPTION_MAX} characters.`));
  if (post.mediaUrls.length > PINTEREST_MAX_IMAGES) issues.push(failure(164, `pinterest takes at most ${PINTEREST_MAX_IMAGES} images in one pin.`));
  if (post.mediaUrls.some((url) => isVideoUrl(post, url)) && post.mediaUrls.length > 1) issues.push(failure(164, 'pinterest takes one video alone, without other media.'));
  if (options.title !== undefined && (typeof options.title !== 'string' || [...options.title].length > PINTEREST_TITLE_MAX)) issues.push(failure(101, `pinterestOptions.title must be a string of at most ${PINTEREST_TITLE_MAX} characters.`));
  if (options.boardId !== undefined && (typeof options.boardId !== 'string' || !/^\d{1,30}$/.test(options.boardId))) issues.push(failure(101, 'pinterestOptions.boardId must be a board id (digits).'));
  if (options.link !== undefined && (typeof options.link !== 'string' || !/^https?:\/\/\S+$/.test(options.link))) issues.push(failure(101, 'pinterestOptions.link must be an http(s) URL.'));
  if (options.altText !== undefined && (typeof options.altText !== 'string' || options.altText.length > 500)) issues.push(failure(101, 'pinterestOptions.altText must be a string of at most 500 characters.'));
  return issues;
}

async function boardOf(ctx: PublishContext, token: string): Promise<string | PublishFailure> {
  if (typeof ctx.post.options.boardId === 'string') return ctx.post.options.boardId;
  const answer = await callPinterest(ctx, token, 'GET', '/v5/boards?page_size=1');
  if (answer.status !== 200) return classifyPinterestError(answer);
  const first = (Array.isArray(answer.json.items) ? (answer.json.items as { id?: unknown }[]) : [])[0]?.id;
  return typeof first === 'string' ? first : failure(101, 'This pinterest account has no board; create one or set pinterestOptions.boardId.');
}

/** Registers a video, uploads it with the form fields Pinterest gave, and waits until Pinterest has processed it. */
async function uploadVideo(ctx: PublishContext, token: string, url: string): Promise<string | PublishFailure> {
  let file: Blob;
  try {
    const response = await ctx.fetch(url);
    if (!response.ok) return failure(164, `The video ${url} could not be read (HTTP ${response.status}).`, { retryAvailable: response.status >= 500 });
    file = new Blob([await response.arrayBuffer()], { type: response.headers.get('content-type') ?? 'video/mp4' });
  } catch (error) {
    return failure(164, `The video ${url} could not be read: ${error instanceof Error ? error.message : String(error)}`, { retryAvailable: true });
  }
  const registered = await callPinterest(ctx, token, 'POST', '/v5/media', { media_type: 'video' });
  const mediaId = registered.json.media_id;
  const uploadUrl = registered.json.upload_url;
  const parameters = registered.json.upload_parameters;
  if (registered.status !== 201 || typeof mediaId !== 'string' || typeof uploadUrl !== 'string' || !parameters || typeof parameters !== 'object') return classifyPinterestError(registered);
  const form = new FormData();
  for (const [key, value] of Object.entries(parameters as Record<string, unknown>)) form.set(key, String(value));
  form.set('file', file, 'video.mp4');
  let uploaded: Response;
  try {
    uploaded = await ctx.fetch(uploadUrl, { method: 'POST', body: form });
  } catch (error) {
    return failure(164, `The video upload to pinterest failed: ${error instanceof Error ? error.message : String(error)}`, { retryAvailable: true });
  }
  if (!uploaded.ok) return failure(164, `The video upload to pinterest failed (HTTP ${uploaded.status}).`, { retryAvailable: uploaded.status >= 500 });
  for (let polls = 0; polls < MAX_MEDIA_POLLS; polls++) {
    const status = await callPinterest(ctx, token, 'GET', `/v5/media/${encodeURIComponent(mediaId)}`);
    if (status.status !== 200) return classifyPinterestError(status);
    if (status.json.status === 'succeeded') return mediaId;
    if (status.json.status === 'failed') return failure(164, 'pinterest could not process the video.');
    // Pinterest processes videos for a while and says nothing about when to look again: a short pause.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
  return failure(164, 'pinterest did not finish processing the video in time.', { retryAvailable: true });
}

function postUrlOf(ctx: PublishContext, id: string): string {
  return ctx.account.sandbox ? `${ctx.baseUrl.replace(/\/+$/, '')}/pin/${id}/` : `https://www.pinterest.com/pin/${id}/`;
}

export const pinterestPublishAdapter: PublishAdapter = {
  platform: 'pinterest',
  // Access tokens expire: renewed with the OAuth 2.0 refresh grant (token-refresher.ts decides when).
  refresh: oauth2RefreshGrant,

  validate: (post) => validatePinterest(post),

  async prepare(ctx, previous) {
    const issues = validatePinterest(ctx.post);
    if (issues.length > 0) return issues[0]!;
    if (previous && previous.pin) return previous;
    const token = await tokenOf(ctx);
    if (isFailure(token)) return token;
    const boardId = await boardOf(ctx, token);
    if (isFailure(boardId)) return boardId;
    const options = ctx.post.options;
    const urls = ctx.post.mediaUrls;
    let mediaSource: Record<string, unknown>;
    if (isVideoUrl(ctx.post, urls[0]!)) {
      const mediaId = await uploadVideo(ctx, token, urls[0]!);
      if (isFailure(mediaId)) return mediaId;
      const cover = typeof options.thumbNail === 'string' ? options.thumbNail : null;
      mediaSource = { source_type: 'video_id', media_id: mediaId, ...(cover ? { cover_image_url: cover } : { cover_image_key_frame_time: 0 }) };
    } else if (urls.length === 1) {
      mediaSource = { source_type: 'image_url', url: urls[0] };
    } else {
      mediaSource = { source_type: 'multiple_image_urls', items: urls.map((url) => ({ url })) };
    }
    const pin = {
      board_id: boardId,
      ...(typeof options.title === 'string' && { title: options.title }),
      description: ctx.post.text,
      ...(typeof options.link === 'string' && { link: options.link }),
      ...(typeof options.altText === 'string' && { alt_text: options.altText }),
      media_source: mediaSource,
    };
    const prepared: PinterestPrepared = { pin };
    return prepared;
  },

  async commit(ctx, state): Promise<CommitResult> {
    const { pin } = state as PinterestPrepared;
    const token = await tokenOf(ctx);
    if (isFailure(token)) return token;
    const answer = await callPinterest(ctx, token, 'POST', '/v5/pins', pin);
    if (answer.status === 201 && typeof answer.json.id === 'string') return { kind: 'done', id: answer.json.id, postUrl: postUrlOf(ctx, answer.json.id) };
    return classifyPinterestError(answer);
  },

  confirm: confirmStoredResult('pinterest'),

  async reconcile(ctx, state) {
    const { pin } = state as PinterestPrepared;
    const token = await tokenOf(ctx);
    if (isFailure(token)) return token;
    const board = encodeURIComponent(String(pin.board_id));
    const found = await findByIdentity(
      ctx,
      async (bookmark) => {
        const answer = await callPinterest(ctx, token, 'GET', `/v5/boards/${board}/pins?page_size=100${bookmark ? `&bookmark=${encodeURIComponent(bookmark)}` : ''}`);
        if (answer.status !== 200) return classifyPinterestError(answer);
        return { items: Array.isArray(answer.json.items) ? (answer.json.items as Record<string, unknown>[]) : [], next: typeof answer.json.bookmark === 'string' ? answer.json.bookmark : null };
      },
      (item) =>
        typeof item.id !== 'string'
          ? null
          : {
              id: item.id,
              createdAt: Date.parse(String(item.created_at)),
              // Every field the pin was made with, not its title alone (issue 30, case 3).
              matches:
                item.description === pin.description &&
                (item.title ?? null) === (pin.title ?? null) &&
                (item.link ?? null) === (pin.link ?? null) &&
                (item.alt_text ?? null) === (pin.alt_text ?? null),
            },
    );
    if (found === null || isFailure(found)) return found;
    return { kind: 'done', id: found.id, postUrl: postUrlOf(ctx, found.id) };
  },

  async remove(ctx, networkPostId) {
    const token = await tokenOf(ctx);
    if (isFailure(token)) return false;
    const answer = await callPinterest(ctx, token, 'DELETE', `/v5/pins/${encodeURIComponent(networkPostId)}`);
    return answer.status === 204 || answer.status === 404;
  },
};
