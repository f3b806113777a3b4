/**
 * @module
 * The facebook Page publishing adapter, on the Graph API (graph.ts) with the page's token; `account.accountId` is the
 * page id. What a post becomes:
 * - text (and a link): `POST /{page-id}/feed {message}`;
 * - one image: `POST /{page-id}/photos {url, message}`;
 * - 2-10 images: prepare uploads each with `published: false` (harmless if repeated), commit is
 *   `POST /{page-id}/feed {message, attached_media: [{media_fbid}]}`;
 * - one video: `POST /{page-id}/videos {file_url, description}`, then pending until `status.video_status` is ready;
 * - a reel (`facebookOptions.reels: true` with one video): prepare runs `video_reels` start and the hosted upload
 *   (`file_url` header), commit is `video_reels` finish with `video_state: PUBLISHED`, then pending like a video.
 * Facebook has no client key, so `reconcile` pages the page's posts (`after` cursor) back to the commit's start for
 * one with this text that no other post recorded (reconcile-by-identity.ts); comments are `POST /{post-id}/comments`, deletion `DELETE /{post-id}`.
 */
import type { CommitResult, PlatformPost, PreparedState, PublishAdapter, PublishContext, PublishDone, PublishFailure } from '../publish-adapter.js';
import { classifyGraphError } from '../meta/classify.js';
import { accessTokenOf, callGraph } from '../meta/graph.js';
import { CLOCK_SLACK_MS, findByIdentity } from '../reconcile-by-identity.js';
import { facebookEngagement } from './engagement.js';
import { failure } from '../kit.js';

export const FACEBOOK_TEXT_MAX = 63_206;
export const FACEBOOK_IMAGES_MAX = 10;
/** How often to look at a processing video. */
const VIDEO_CHECK_MS = 3_000;
/** How far back `reconcile` looks: an interrupted commit happened after prepare. */
const RECONCILE_SLACK_MS = 60_000;

type FacebookKind = 'feed' | 'photo' | 'album' | 'video' | 'reel';

interface FacebookPrepared extends PreparedState {
  kind: FacebookKind;
  preparedAt: number;
  photoIds?: string[];
  videoId?: string;
}

const VIDEO_URL = /\.(mp4|mov|m4v|webm)(\?|#|$)/i;

function kindOf(post: PlatformPost): FacebookKind {
  if (post.mediaUrls.length === 0) return 'feed';
  const video = post.isVideo || post.mediaUrls.some((url) => VIDEO_URL.test(url));
  if (video) return post.options.reels === true ? 'reel' : 'video';
  return post.mediaUrls.length === 1 ? 'photo' : 'album';
}

function validateFacebook(post: PlatformPost): PublishFailure[] {
  const issues: PublishFailure[] = [];
  if ([...post.text].length > FACEBOOK_TEXT_MAX) issues.push(failure(101, `facebook posts are at most ${FACEBOOK_TEXT_MAX} characters.`));
  if (post.text.trim() === '' && post.mediaUrls.length === 0) issues.push(failure(101, 'An empty facebook post needs media.'));
  if (post.mediaUrls.length > FACEBOOK_IMAGES_MAX) issues.push(failure(164, `facebook takes at most ${FACEBOOK_IMAGES_MAX} images in one post.`));
  const videos = post.mediaUrls.filter((url) => VIDEO_URL.test(url)).length;
  if ((videos > 0 || post.isVideo) && post.mediaUrls.length > 1) issues.push(failure(164, 'A facebook video post carries one video and nothing else.'));
  if (post.options.reels !== undefined && typeof post.options.reels !== 'boolean') issues.push(failure(101, 'facebookOptions.reels must be a boolean.'));
  return issues;
}

async function permalinkOf(ctx: PublishContext, id: string): Promise<string> {
  const answer = await callGraph(ctx, 'GET', `/${encodeURIComponent(id)}`, { fields: 'permalink_url' });
  const url = answer.ok ? answer.body.permalink_url : null;
  return typeof url === 'string' ? url : `https://www.facebook.com/${encodeURIComponent(id)}`;
}

async function videoStatus(ctx: PublishContext, videoId: string): Promise<CommitResult> {
  const answer = await callGraph(ctx, 'GET', `/${encodeURIComponent(videoId)}`, { fields: 'status,permalink_url' });
  if (!answer.ok) return classifyGraphError('facebook', answer);
  const status = (answer.body.status as { video_status?: unknown } | undefined)?.video_status;
  if (status === 'error') return { ...failure(164, 'facebook could not process the video.'), details: { videoStatus: status } };
  if (status !== 'ready') return { kind: 'pending', state: { videoId }, checkAfterMs: VIDEO_CHECK_MS };
  const permalink = typeof answer.body.permalink_url === 'string' ? answer.body.permalink_url : `https://www.facebook.com/${videoId}`;
  return { kind: 'done', id: videoId, postUrl: permalink };
}

export const facebookPublishAdapter: PublishAdapter = {
  platform: 'facebook',
  // Analytics, comments and replies (engagement.ts).
  ...facebookEngagement,

  validate: (post) => validateFacebook(post),

  async prepare(ctx, previous) {
    const issues = validateFacebook(ctx.post);
    if (issues.length > 0) return issues[0]!;
    const page = encodeURIComponent(ctx.account.accountId);
    const kind = kindOf(ctx.post);
    const prepared: FacebookPrepared = { kind, preparedAt: ctx.now(), ...(previous as Partial<FacebookPrepared> | null) };
    if (kind === 'album' && !prepared.photoIds) {
      const photoIds: string[] = [];
      for (const url of ctx.post.mediaUrls) {
        const answer = await callGraph(ctx, 'POST', `/${page}/photos`, { url, published: false });
        if (!answer.ok) return classifyGraphError('facebook', answer);
        photoIds.push(String(answer.body.id));
      }
      prepared.photoIds = photoIds;
    }
    if (kind === 'reel' && !prepared.videoId) {
      const start = await callGraph(ctx, 'POST', `/${page}/video_reels`, { upload_phase: 'start' });
      if (!start.ok) return classifyGraphError('facebook', start);
      const videoId = String(start.body.video_id);
      const uploadUrl = String(start.body.upload_url);
      // The hosted upload: facebook pulls the file from `file_url` itself.
      const token = await accessTokenOf(ctx);
      const upload = await ctx.fetch(uploadUrl, { method: 'POST', headers: { Authorization: `OAuth ${token ?? ''}`, file_url: ctx.post.mediaUrls[0]! } }).catch(() => null);
      if (!upload?.ok) return { ...failure(164, 'facebook could not take the reel upload.'), retryAvailable: true, details: { httpStatus: upload?.status ?? 0 } };
      prepared.videoId = videoId;
    }
    return prepared;
  },

  async commit(ctx, preparedState) {
    const prepared = preparedState as FacebookPrepared;
    const page = encodeURIComponent(ctx.account.accountId);
    const { text, mediaUrls } = ctx.post;
    if (prepared.kind === 'video' || prepared.kind === 'reel') {
      const answer =
        prepared.kind === 'video'
          ? await callGraph(ctx, 'POST', `/${page}/videos`, { file_url: mediaUrls[0], description: text })
          : await callGraph(ctx, 'POST', `/${page}/video_reels`, { upload_phase: 'finish', video_id: prepared.videoId, video_state: 'PUBLISHED', description: text });
      if (!answer.ok) return classifyGraphError('facebook', answer);
      const videoId = prepared.kind === 'video' ? String(answer.body.id) : prepared.videoId!;
      return { kind: 'pending', state: { videoId }, checkAfterMs: VIDEO_CHECK_MS };
    }
    const answer =
      prepared.kind === 'photo'
        ? await callGraph(ctx, 'POST', `/${page}/photos`, { url: mediaUrls[0], message: text })
        : await callGraph(ctx, 'POST', `/${page}/feed`, {
            message: text,
            ...(prepared.kind === 'album' && { attached_media: prepared.photoIds!.map((media_fbid) => ({ media_fbid })) }),
          });
    if (!answer.ok) return classifyGraphError('facebook', answer);
    const id = String(answer.body.post_id ?? answer.body.id);
    return { kind: 'done', id, postUrl: await permalinkOf(ctx, id) };
  },

  async confirm(ctx, state) {
    return typeof state.videoId === 'string' ? videoStatus(ctx, state.videoId) : failure(101, 'Nothing to confirm on facebook.');
  },

  async reconcile(ctx, preparedState) {
    const prepared = preparedState as Partial<FacebookPrepared>;
    if (prepared.kind === 'reel' && prepared.videoId) {
      // A finished reel is found under its own video id.
      const found = await videoStatus(ctx, prepared.videoId);
      return found.kind === 'failed' && found.code !== 164 ? null : found;
    }
    const page = encodeURIComponent(ctx.account.accountId);
    const found = await findByIdentity(
      // Never before the attempt was prepared, whichever start is later.
      { ...ctx, commitStartedAt: Math.max(ctx.commitStartedAt ?? 0, (prepared.preparedAt ?? 0) - RECONCILE_SLACK_MS + CLOCK_SLACK_MS) },
      async (after) => {
        const answer = await callGraph(ctx, 'GET', `/${page}/published_posts`, { fields: 'id,message,created_time,permalink_url', limit: 100, ...(after && { after }) });
        // A refused read is retried by the job (reconcile never guesses).
        if (!answer.ok) throw new Error(`facebook reconcile: Graph code ${answer.error.code}`);
        const paging = answer.body.paging as { cursors?: { after?: unknown }; next?: unknown } | undefined;
        const next = typeof paging?.next === 'string' && typeof paging.cursors?.after === 'string' ? paging.cursors.after : null;
        return { items: Array.isArray(answer.body.data) ? (answer.body.data as Record<string, unknown>[]) : [], next };
      },
      (post) => (typeof post.id === 'string' ? { id: post.id, createdAt: Date.parse(String(post.created_time)), matches: post.message === ctx.post.text } : null),
    );
    if (found === null || 'kind' in found) return found;
    const permalink = found.item.permalink_url;
    const done: PublishDone = { kind: 'done', id: found.id, postUrl: typeof permalink === 'string' ? permalink : `https://www.facebook.com/${found.id}` };
    return done;
  },

  async comment(ctx, networkPostId, text, mediaUrls) {
    const answer = await callGraph(ctx, 'POST', `/${encodeURIComponent(networkPostId)}/comments`, { message: text, ...(mediaUrls[0] && { attachment_url: mediaUrls[0] }) });
    if (!answer.ok) return classifyGraphError('facebook', answer);
    return { kind: 'done', id: String(answer.body.id), postUrl: `https://www.facebook.com/${encodeURIComponent(networkPostId)}` };
  },

  async remove(ctx, networkPostId) {
    const answer = await callGraph(ctx, 'DELETE', `/${encodeURIComponent(networkPostId)}`);
    // Already gone (code 100, subcode 33) counts as deleted.
    return answer.ok || answer.error.subcode === 33;
  },
};
