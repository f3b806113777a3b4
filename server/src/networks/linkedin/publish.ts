/**
 * @module
 * The linkedin publishing adapter: the Posts API (`{baseUrl}/rest/…`: the sandbox on loopback, or
 * api.linkedin.com) with the member's access token and the versioned headers (rest-api.ts).
 * - validate: 3,000 characters; 1 video, or 1-20 images (2+ become a multi-image post), not both.
 * - prepare: images `POST /rest/images?action=initializeUpload` → `PUT` the bytes to `uploadUrl`; videos
 *   `POST /rest/videos?action=initializeUpload {fileSizeBytes}` → `PUT` each part of `uploadInstructions` (keeping
 *   each part's ETag) → `POST /rest/videos?action=finalizeUpload {uploadedPartIds}`. The URNs are kept, so a resumed
 *   attempt does not upload again.
 * - commit: `POST /rest/posts` with the text in the "little text format" (little-text.ts) → 201, the post URN in
 *   `x-restli-id` and an empty body.
 * - reconcile: the author's posts (`GET /rest/posts?q=author`, paged by `start` back to the commit's start) with the same
 *   commentary, not recorded by another post (reconcile-by-identity.ts).
 * - remove: `DELETE /rest/posts/{urn}`; comment: `POST /rest/socialActions/{urn}/comments`.
 */
import { findByIdentity } from '../reconcile-by-identity.js';
import type { CommitResult, PlatformPost, PreparedState, PublishAdapter, PublishContext, PublishFailure } from '../publish-adapter.js';
import { confirmStoredResult } from '../confirm-stored-result.js';
import { classifyLinkedInError, classifyLinkedInRefresh } from './classify.js';
import { escapeLittleText } from './little-text.js';
import { callLinkedIn } from './rest-api.js';
import { linkedinEngagement } from './engagement.js';
import { oauth2RefreshGrantClassifiedBy } from '../oauth/refresh-grant.js';
import { accessTokenOf as tokenOf, failure, isFailure } from '../kit.js';

export const LINKEDIN_TEXT_MAX = 3_000;
export const LINKEDIN_MAX_IMAGES = 20;

interface LinkedInPrepared extends PreparedState {
  author: string;
  commentary: string;
  images: string[];
  video: string | null;
}

const VIDEO_URL = /\.(mp4|mov|m4v)(\?|#|$)/i;
const isVideoUrl = (post: PlatformPost, url: string) => VIDEO_URL.test(url) || (post.isVideo && post.mediaUrls.length === 1);

function validateLinkedIn(post: PlatformPost): PublishFailure[] {
  const issues: PublishFailure[] = [];
  const length = [...post.text].length;
  if (post.text.trim() === '' && post.mediaUrls.length === 0) issues.push(failure(101, 'linkedin posts need text or media.'));
  if (length > LINKEDIN_TEXT_MAX) issues.push(failure(101, `linkedin posts are at most ${LINKEDIN_TEXT_MAX} characters; this one has ${length}.`));
  const videos = post.mediaUrls.filter((url) => isVideoUrl(post, url)).length;
  if (videos > 0 && post.mediaUrls.length > 1) issues.push(failure(164, 'linkedin takes one video alone, without other media.'));
  if (post.mediaUrls.length > LINKEDIN_MAX_IMAGES) issues.push(failure(164, `linkedin takes at most ${LINKEDIN_MAX_IMAGES} images in one post.`));
  return issues;
}

/** The member (`urn:li:person:{id}`) or, for a page, the organization URN the account id already is. */
const authorOf = (ctx: PublishContext) => (ctx.account.accountId.startsWith('urn:li:') ? ctx.account.accountId : `urn:li:person:${ctx.account.accountId}`);
const rest = (ctx: PublishContext, path: string) => `${ctx.baseUrl.replace(/\/+$/, '')}/rest${path}`;

async function download(ctx: PublishContext, url: string): Promise<{ bytes: Uint8Array; contentType: string } | PublishFailure> {
  try {
    const response = await ctx.fetch(url);
    if (!response.ok) return failure(164, `The media ${url} could not be read (HTTP ${response.status}).`, { retryAvailable: response.status >= 500 });
    const contentType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (!/^(image|video)\//.test(contentType)) return failure(164, `${url} is neither an image nor a video (${contentType || 'no content type'}).`);
    return { bytes: new Uint8Array(await response.arrayBuffer()), contentType };
  } catch (error) {
    return failure(164, `The media ${url} could not be read: ${error instanceof Error ? error.message : String(error)}`, { retryAvailable: true });
  }
}

async function uploadImage(ctx: PublishContext, token: string, author: string, url: string): Promise<string | PublishFailure> {
  const file = await download(ctx, url);
  if (isFailure(file)) return file;
  const init = await callLinkedIn(ctx, token, 'POST', rest(ctx, '/images?action=initializeUpload'), { json: { initializeUploadRequest: { owner: author } } });
  const value = init.json.value as { uploadUrl?: unknown; image?: unknown } | undefined;
  if (init.status !== 200 || typeof value?.uploadUrl !== 'string' || typeof value.image !== 'string') return classifyLinkedInError(init, 'media');
  const put = await callLinkedIn(ctx, token, 'PUT', value.uploadUrl, { bytes: file.bytes, contentType: file.contentType });
  if (put.status < 200 || put.status >= 300) return classifyLinkedInError(put, 'media');
  return value.image;
}

async function uploadVideo(ctx: PublishContext, token: string, author: string, url: string): Promise<string | PublishFailure> {
  const file = await download(ctx, url);
  if (isFailure(file)) return file;
  const init = await callLinkedIn(ctx, token, 'POST', rest(ctx, '/videos?action=initializeUpload'), {
    json: { initializeUploadRequest: { owner: author, fileSizeBytes: file.bytes.byteLength, uploadCaptions: false, uploadThumbnail: false } },
  });
  const value = init.json.value as { video?: unknown; uploadToken?: unknown; uploadInstructions?: { uploadUrl?: unknown; firstByte?: unknown; lastByte?: unknown }[] } | undefined;
  if (init.status !== 200 || typeof value?.video !== 'string' || !Array.isArray(value.uploadInstructions)) return classifyLinkedInError(init, 'media');
  const etags: string[] = [];
  for (const part of value.uploadInstructions) {
    if (typeof part.uploadUrl !== 'string' || typeof part.firstByte !== 'number' || typeof part.lastByte !== 'number') return failure(164, 'linkedin sent unreadable upload instructions.', { retryAvailable: true });
    const put = await callLinkedIn(ctx, token, 'PUT', part.uploadUrl, { bytes: file.bytes.subarray(part.firstByte, part.lastByte + 1), contentType: 'application/octet-stream' });
    const etag = put.headers.get('etag');
    if (put.status < 200 || put.status >= 300 || !etag) return classifyLinkedInError(put, 'media');
    etags.push(etag);
  }
  const finalize = await callLinkedIn(ctx, token, 'POST', rest(ctx, '/videos?action=finalizeUpload'), {
    json: { finalizeUploadRequest: { video: value.video, uploadToken: typeof value.uploadToken === 'string' ? value.uploadToken : '', uploadedPartIds: etags } },
  });
  if (finalize.status < 200 || finalize.status >= 300) return classifyLinkedInError(finalize, 'media');
  return value.video;
}

function postUrlOf(ctx: PublishContext, urn: string): string {
  if (ctx.account.sandbox) return `${ctx.baseUrl.replace(/\/+$/, '')}/feed/update/${encodeURIComponent(urn)}`;
  return `https://www.linkedin.com/feed/update/${urn}/`;
}

export const linkedinPublishAdapter: PublishAdapter = {
  platform: 'linkedin',
  ...linkedinEngagement,
  // Access tokens expire: renewed with the OAuth 2.0 refresh grant (token-refresher.ts decides when); a refresh the
  // app's configuration forbids is 524 (no retry, no relink), an outage 119.
  refresh: oauth2RefreshGrantClassifiedBy(classifyLinkedInRefresh),

  validate: (post) => validateLinkedIn(post),

  async prepare(ctx, previous) {
    const issues = validateLinkedIn(ctx.post);
    if (issues.length > 0) return issues[0]!;
    if (previous && typeof previous.commentary === 'string' && Array.isArray(previous.images)) return previous;
    const token = await tokenOf(ctx);
    if (isFailure(token)) return token;
    const author = authorOf(ctx);
    const images: string[] = [];
    let video: string | null = null;
    for (const url of ctx.post.mediaUrls) {
      const urn = isVideoUrl(ctx.post, url) ? await uploadVideo(ctx, token, author, url) : await uploadImage(ctx, token, author, url);
      if (isFailure(urn)) return urn;
      if (urn.startsWith('urn:li:video:')) video = urn;
      else images.push(urn);
    }
    const prepared: LinkedInPrepared = { author, commentary: escapeLittleText(ctx.post.text), images, video };
    return prepared;
  },

  async commit(ctx, state): Promise<CommitResult> {
    const prepared = state as LinkedInPrepared;
    const token = await tokenOf(ctx);
    if (isFailure(token)) return token;
    const content = prepared.video
      ? { media: { id: prepared.video } }
      : prepared.images.length === 1
        ? { media: { id: prepared.images[0] } }
        : prepared.images.length > 1
          ? { multiImage: { images: prepared.images.map((id) => ({ id })) } }
          : null;
    const answer = await callLinkedIn(ctx, token, 'POST', rest(ctx, '/posts'), {
      json: {
        author: prepared.author,
        commentary: prepared.commentary,
        visibility: 'PUBLIC',
        distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
        ...(content && { content }),
        lifecycleState: 'PUBLISHED',
        isReshareDisabledByAuthor: false,
      },
    });
    const urn = answer.headers.get('x-restli-id');
    if (answer.status === 201 && urn) return { kind: 'done', id: urn, postUrl: postUrlOf(ctx, urn) };
    if (answer.status === 201) return failure(119, 'linkedin accepted the post but sent no id; check the profile before retrying.', { details: { outcome: 'unknown' } });
    return classifyLinkedInError(answer);
  },

  confirm: confirmStoredResult('linkedin'),

  async reconcile(ctx, state) {
    const prepared = state as LinkedInPrepared;
    const token = await tokenOf(ctx);
    if (isFailure(token)) return token;
    const author = encodeURIComponent(prepared.author);
    const found = await findByIdentity(
      ctx,
      async (start) => {
        const answer = await callLinkedIn(ctx, token, 'GET', rest(ctx, `/posts?q=author&author=${author}&count=100&start=${start ?? 0}&sortBy=LAST_MODIFIED`), undefined, {
          'X-RestLi-Method': 'FINDER',
        });
        if (answer.status !== 200) return classifyLinkedInError(answer);
        const elements = Array.isArray(answer.json.elements) ? (answer.json.elements as Record<string, unknown>[]) : [];
        const paging = answer.json.paging as { start?: unknown; total?: unknown } | undefined;
        const next = Number(paging?.start ?? start ?? 0) + elements.length;
        return { items: elements, next: elements.length > 0 && next < Number(paging?.total ?? 0) ? String(next) : null };
      },
      (element) =>
        typeof element.id === 'string'
          ? {
              id: element.id,
              // The listing is sorted by last modification: paging stops on that time, so an older post edited since
              // the commit cannot end the search before this one.
              createdAt: Number(element.lastModifiedAt ?? element.publishedAt ?? element.createdAt ?? 0),
              matches: element.commentary === prepared.commentary,
            }
          : null,
    );
    if (found === null || isFailure(found)) return found;
    return { kind: 'done', id: found.id, postUrl: postUrlOf(ctx, found.id) };
  },

  async remove(ctx, networkPostId) {
    const token = await tokenOf(ctx);
    if (isFailure(token)) return false;
    const answer = await callLinkedIn(ctx, token, 'DELETE', rest(ctx, `/posts/${encodeURIComponent(networkPostId)}`));
    return answer.status === 204 || answer.status === 200 || answer.status === 404;
  },

  async comment(ctx, networkPostId, text, mediaUrls) {
    const token = await tokenOf(ctx);
    if (isFailure(token)) return token;
    const author = authorOf(ctx);
    const images: string[] = [];
    for (const url of mediaUrls) {
      const urn = await uploadImage(ctx, token, author, url);
      if (isFailure(urn)) return urn;
      images.push(urn);
    }
    const answer = await callLinkedIn(ctx, token, 'POST', rest(ctx, `/socialActions/${encodeURIComponent(networkPostId)}/comments`), {
      json: { actor: author, object: networkPostId, message: { text: escapeLittleText(text) }, ...(images.length > 0 && { content: images.map((id) => ({ entity: { image: id } })) }) },
    });
    const id = answer.headers.get('x-restli-id');
    if (answer.status === 201) return { kind: 'done', id: id ?? '', postUrl: postUrlOf(ctx, networkPostId) };
    return classifyLinkedInError(answer);
  },
};
