/**
 * @module
 * The youtube publishing adapter: a resumable `videos.insert` upload (the Data API's resumable protocol), with
 * `ctx.baseUrl` standing for www.googleapis.com.
 *
 * prepare: the video's size from the media host, then `POST /upload/youtube/v3/videos?uploadType=resumable&part=
 * snippet,status` with the resource (`youTubeOptions` title, description = the post text, tags, categoryId,
 * visibility → privacyStatus, publishAt, madeForKids); the answer's `Location` is the upload session. A session
 * publishes nothing until its last byte arrives, so prepare may run again.
 * commit: asks the session how much it holds (`PUT` with `Content-Range: bytes * /total`: 308 with `Range`, or the
 * finished video), then sends the rest. A dropped connection or a 5xx is followed by the same question and the
 * upload resumes from where it stopped (RESUME_MAX times). The session is the upload's identity, so `reconcile` asks
 * it too: a finished session names the video; an unfinished one means the commit may run again (and resumes).
 */
import type { CommitResult, PlatformPost, PreparedState, PublishAdapter, PublishContext, PublishDone, PublishFailure } from '../publish-adapter.js';
import { classifyYoutubeError, googleAnswerOf } from './classify.js';
import { youtubeEngagement } from './engagement.js';
import { oauth2RefreshGrant } from '../oauth/refresh-grant.js';
import { failure, storedAccessToken } from '../kit.js';

export const YOUTUBE_TITLE_MAX = 100;
export const YOUTUBE_DESCRIPTION_MAX_BYTES = 5_000;
const RESUME_MAX = 5;
const VISIBILITIES = ['public', 'unlisted', 'private'] as const;

interface YoutubePrepared extends PreparedState {
  sessionUri: string;
  total: number;
  contentType: string;
}


function validateYoutube(post: PlatformPost): PublishFailure[] {
  const issues: PublishFailure[] = [];
  const options = post.options;
  if (post.mediaUrls.length !== 1) issues.push(failure(164, 'youtube posts carry exactly one video.'));
  const title = options.title;
  if (typeof title !== 'string' || title.trim() === '') issues.push(failure(101, 'youtube needs youTubeOptions.title.'));
  else if ([...title].length > YOUTUBE_TITLE_MAX || /[<>]/.test(title)) issues.push(failure(101, `youTubeOptions.title must be at most ${YOUTUBE_TITLE_MAX} characters, without < or >.`));
  if (Buffer.byteLength(post.text) > YOUTUBE_DESCRIPTION_MAX_BYTES) issues.push(failure(101, `youtube descriptions are at most ${YOUTUBE_DESCRIPTION_MAX_BYTES} bytes.`));
  if (options.visibility !== undefined && !(VISIBILITIES as readonly unknown[]).includes(options.visibility)) issues.push(failure(101, 'youTubeOptions.visibility must be public, unlisted or private.'));
  if (options.tags !== undefined && (!Array.isArray(options.tags) || options.tags.some((tag) => typeof tag !== 'string'))) issues.push(failure(101, 'youTubeOptions.tags must be an array of strings.'));
  if (options.categoryId !== undefined && !/^\d{1,4}$/.test(String(options.categoryId))) issues.push(failure(101, 'youTubeOptions.categoryId must be a numeric category id.'));
  return issues;
}

function resourceOf(post: PlatformPost): Record<string, unknown> {
  const options = post.options;
  return {
    snippet: {
      title: options.title,
      description: post.text,
      ...(Array.isArray(options.tags) && { tags: options.tags }),
      categoryId: String(options.categoryId ?? '24'),
    },
    status: {
      privacyStatus: typeof options.visibility === 'string' ? options.visibility : 'private',
      ...(typeof options.publishAt === 'string' && { publishAt: options.publishAt }),
      ...(typeof options.madeForKids === 'boolean' && { selfDeclaredMadeForKids: options.madeForKids }),
    },
  };
}

async function bearer(ctx: PublishContext): Promise<string> {
  return `Bearer ${(await storedAccessToken(ctx.account)) ?? ''}`;
}

const watchUrl = (ctx: PublishContext, id: string) =>
  ctx.account.sandbox ? `${ctx.baseUrl.replace(/\/+$/, '')}/watch?v=${encodeURIComponent(id)}` : `https://www.youtube.com/watch?v=${encodeURIComponent(id)}`;

/** Where the session stands: finished (the video), or how many bytes it holds. */
async function sessionState(ctx: PublishContext, prepared: YoutubePrepared): Promise<{ done: PublishDone } | { offset: number } | PublishFailure> {
  let response: Response;
  try {
    response = await ctx.fetch(prepared.sessionUri, { method: 'PUT', headers: { Authorization: await bearer(ctx), 'Content-Range': `bytes */${prepared.total}` } });
  } catch {
    return classifyYoutubeError({ status: 0, reason: null, message: 'no answer', retryAfterSeconds: null });
  }
  if (response.status === 200 || response.status === 201) {
    const video = (await response.json()) as { id?: unknown };
    return { done: { kind: 'done', id: String(video.id), postUrl: watchUrl(ctx, String(video.id)) } };
  }
  if (response.status === 308) {
    await response.body?.cancel();
    const last = /^bytes=0-(\d+)$/.exec(response.headers.get('range') ?? '')?.[1];
    return { offset: last === undefined ? 0 : Number(last) + 1 };
  }
  return classifyYoutubeError(await googleAnswerOf(response));
}

export const youtubePublishAdapter: PublishAdapter = {
  platform: 'youtube',
  ...youtubeEngagement,
  // Access tokens expire: renewed with the OAuth 2.0 refresh grant (token-refresher.ts decides when).
  refresh: oauth2RefreshGrant,

  validate: (post) => validateYoutube(post),

  async prepare(ctx, previous) {
    const issues = validateYoutube(ctx.post);
    if (issues.length > 0) return issues[0]!;
    if (previous && typeof previous.sessionUri === 'string') return previous;
    const url = ctx.post.mediaUrls[0]!;
    const head = await ctx.fetch(url, { method: 'HEAD' }).catch(() => null);
    const total = Number(head?.headers.get('content-length') ?? NaN);
    if (!head?.ok || !Number.isInteger(total) || total <= 0) return failure(164, 'youtube: the video could not be read from its URL.', { details: { httpStatus: head?.status ?? 0 } });
    const contentType = head.headers.get('content-type')?.startsWith('video/') ? head.headers.get('content-type')! : 'video/*';
    let response: Response;
    try {
      response = await ctx.fetch(`${ctx.baseUrl.replace(/\/+$/, '')}/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status`, {
        method: 'POST',
        headers: {
          Authorization: await bearer(ctx),
          'Content-Type': 'application/json; charset=UTF-8',
          'X-Upload-Content-Length': String(total),
          'X-Upload-Content-Type': contentType,
        },
        body: JSON.stringify(resourceOf(ctx.post)),
      });
    } catch {
      return classifyYoutubeError({ status: 0, reason: null, message: 'no answer', retryAfterSeconds: null });
    }
    const sessionUri = response.headers.get('location');
    if (!response.ok || !sessionUri) return classifyYoutubeError(await googleAnswerOf(response));
    const prepared: YoutubePrepared = { sessionUri, total, contentType };
    return prepared;
  },

  async commit(ctx, preparedState): Promise<CommitResult> {
    const prepared = preparedState as YoutubePrepared;
    const media = await ctx.fetch(ctx.post.mediaUrls[0]!).catch(() => null);
    if (!media?.ok) return failure(164, 'youtube: the video could not be downloaded for the upload.', { retryAvailable: true });
    const bytes = Buffer.from(await media.arrayBuffer());
    if (bytes.length !== prepared.total) return failure(164, 'youtube: the video changed size since the upload began.', { retryAvailable: true });
    let lastFailure: PublishFailure | null = null;
    for (let round = 0; round <= RESUME_MAX; round++) {
      const state = await sessionState(ctx, prepared);
      if ('kind' in state) return state;
      if ('done' in state) return state.done;
      const { offset } = state;
      ctx.log('youtube upload', { offset, total: prepared.total, round });
      try {
        const response = await ctx.fetch(prepared.sessionUri, {
          method: 'PUT',
          headers: {
            Authorization: await bearer(ctx),
            'Content-Type': prepared.contentType,
            'Content-Range': `bytes ${offset}-${prepared.total - 1}/${prepared.total}`,
          },
          body: bytes.subarray(offset),
        });
        if (response.status === 200 || response.status === 201) {
          const video = (await response.json()) as { id?: unknown };
          return { kind: 'done', id: String(video.id), postUrl: watchUrl(ctx, String(video.id)) };
        }
        if (response.status === 308) {
          await response.body?.cancel();
          continue;
        }
        const classified = classifyYoutubeError(await googleAnswerOf(response));
        // Only a server-side failure is worth resuming at once; anything else is the answer.
        if (response.status < 500) return classified;
        lastFailure = classified;
      } catch {
        // The connection dropped mid-upload: ask the session what arrived and resume from there.
        lastFailure = classifyYoutubeError({ status: 0, reason: null, message: 'connection lost during upload', retryAfterSeconds: null });
      }
    }
    return lastFailure ?? classifyYoutubeError({ status: 0, reason: null, message: 'upload did not finish', retryAfterSeconds: null });
  },

  async confirm() {
    return failure(101, 'Nothing to confirm on youtube.');
  },

  async reconcile(ctx, preparedState) {
    const prepared = preparedState as Partial<YoutubePrepared>;
    if (typeof prepared.sessionUri !== 'string' || typeof prepared.total !== 'number') return null;
    const state = await sessionState(ctx, prepared as YoutubePrepared);
    if ('kind' in state) {
      // An expired or unknown session published nothing.
      if (state.details?.httpStatus === 404 || state.details?.httpStatus === 410) return null;
      throw new Error(`youtube reconcile: ${state.message}`);
    }
    return 'done' in state ? state.done : null;
  },

  async remove(ctx, networkPostId) {
    const response = await ctx.fetch(`${ctx.baseUrl.replace(/\/+$/, '')}/youtube/v3/videos?id=${encodeURIComponent(networkPostId)}`, { method: 'DELETE', headers: { Authorization: await bearer(ctx) } });
    return response.status === 204 || response.status === 404;
  },

  async comment(ctx, networkPostId, text) {
    const response = await ctx.fetch(`${ctx.baseUrl.replace(/\/+$/, '')}/youtube/v3/commentThreads?part=snippet`, {
      method: 'POST',
      headers: { Authorization: await bearer(ctx), 'Content-Type': 'application/json' },
      body: JSON.stringify({ snippet: { videoId: networkPostId, topLevelComment: { snippet: { textOriginal: text } } } }),
    });
    if (!response.ok) return classifyYoutubeError(await googleAnswerOf(response));
    const thread = (await response.json()) as { id?: unknown };
    return { kind: 'done', id: String(thread.id), postUrl: watchUrl(ctx, networkPostId) };
  },
};
