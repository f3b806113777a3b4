/**
 * @module
 * youtube (Data API v3) analytics, comments and replies (analytics-contract.ts) with the channel's token:
 * - post analytics: `GET /youtube/v3/videos?part=snippet,statistics,status&id=…` (50 ids a call, YouTube's limit).
 *   A video of another channel is found but not owned: its descriptive fields, and the service answers every
 *   numeric metric 0 (spec 4.4 rule 2). Statistics are YouTube's (`viewCount`, `likeCount`, `favoriteCount`,
 *   `commentCount`, strings on the wire); a statistic the video hides (likes, comments off) is simply absent.
 * - account analytics: `GET /youtube/v3/channels?part=statistics&mine=true` (`subscriberCount`, `viewCount`,
 *   `videoCount`; a hidden subscriber count is reported as failed).
 * - comments: `GET /youtube/v3/commentThreads?part=snippet,replies&videoId=…` on the channel's own video (checked
 *   first: 186 otherwise); reply: `POST /youtube/v3/comments?part=snippet {snippet: {parentId, textOriginal}}`
 *   under the comment's thread (YouTube nests replies one level deep).
 */
import type { AnalyticsAdapter, NetworkComment, NetworkContext, PostAnalytics } from '../analytics-contract.js';
import type { PublishFailure } from '../publish-adapter.js';
import { googleAnswerOf } from './classify.js';
import { failure, storedAccessToken } from '../kit.js';

/** YouTube's `videos.list` takes at most 50 ids. */
const IDS_PER_CALL = 50;
const STATISTICS = ['viewCount', 'likeCount', 'favoriteCount', 'commentCount'];
const CHANNEL_STATISTICS = ['subscriberCount', 'viewCount', 'videoCount'];

interface Video {
  id: string;
  snippet?: { channelId?: string; title?: string; description?: string; tags?: string[]; channelTitle?: string; thumbnails?: Record<string, { url?: string }> };
  statistics?: Record<string, string>;
  status?: { privacyStatus?: string };
}

interface CommentResource {
  id: string;
  snippet?: { textOriginal?: string; textDisplay?: string; authorDisplayName?: string; publishedAt?: string; parentId?: string };
}


async function get(ctx: NetworkContext, path: string, init: RequestInit = {}): Promise<{ ok: true; json: Record<string, unknown> } | PublishFailure> {
  const token = (await storedAccessToken(ctx.account)) ?? '';
  let response: Response;
  try {
    response = await ctx.fetch(`${ctx.baseUrl}${path}`, { ...init, headers: { Authorization: `Bearer ${token}`, ...init.headers } });
  } catch (error) {
    return failure(503, `youtube could not be reached: ${error instanceof Error ? error.message : String(error)}`.slice(0, 300), { retryAvailable: true });
  }
  if (response.ok) return { ok: true, json: (await response.json()) as Record<string, unknown> };
  return readFailure(await googleAnswerOf(response));
}

/** A Google error on a read → the spec's terms. */
function readFailure(answer: Awaited<ReturnType<typeof googleAnswerOf>>): PublishFailure {
  const details = { httpStatus: answer.status, ...(answer.reason && { reason: answer.reason }), networkMessage: answer.message };
  if (answer.status === 401) return failure(401, "youtube no longer accepts the account's token; link the account again.", { relink: true, details });
  if (answer.status === 403 && answer.reason && /quotaExceeded|rateLimitExceeded/.test(answer.reason)) {
    return failure(429, 'youtube quota or rate limit reached; try again later.', { retryAvailable: true, retryAfterMs: (answer.retryAfterSeconds ?? 3600) * 1000, details });
  }
  if (answer.status === 404 && answer.reason === 'videoNotFound') return failure(186, 'No such youtube video.', { details });
  if (answer.status === 404 && answer.reason === 'commentNotFound') return failure(490, 'No such comment under this video.', { details });
  if (answer.status === 0 || answer.status >= 500) return failure(503, `youtube is unavailable (HTTP ${answer.status}); try again later.`, { retryAvailable: true, details });
  return failure(101, `youtube refused the request: ${answer.message}`, { details });
}

function numbers(source: Record<string, string> | undefined, names: string[]) {
  const metrics: Record<string, number> = {};
  const failedMetrics: string[] = [];
  for (const name of names) {
    const value = Number(source?.[name]);
    if (source?.[name] !== undefined && Number.isFinite(value)) metrics[name] = value;
    else failedMetrics.push(name);
  }
  return { metrics, failedMetrics };
}

function descriptiveOf(video: Video): Record<string, unknown> {
  const thumbnailUrls = Object.fromEntries(Object.entries(video.snippet?.thumbnails ?? {}).map(([size, thumbnail]) => [size, thumbnail.url ?? '']));
  return {
    title: video.snippet?.title ?? '',
    description: video.snippet?.description ?? '',
    tags: video.snippet?.tags ?? [],
    channelTitle: video.snippet?.channelTitle ?? '',
    privacyStatus: video.status?.privacyStatus ?? '',
    thumbnailUrls,
  };
}

async function ownVideo(ctx: NetworkContext, videoId: string): Promise<true | PublishFailure> {
  const answer = await get(ctx, `/youtube/v3/videos?part=snippet&id=${encodeURIComponent(videoId)}`);
  if (!('ok' in answer)) return answer;
  const video = ((answer.json.items as Video[] | undefined) ?? [])[0];
  return video?.snippet?.channelId === ctx.account.accountId ? true : failure(186, 'No such video on this youtube channel.');
}

const toComment = (comment: CommentResource, replyTo: string | null): NetworkComment => ({
  id: comment.id,
  text: comment.snippet?.textOriginal ?? comment.snippet?.textDisplay ?? '',
  author: comment.snippet?.authorDisplayName ?? '',
  created: comment.snippet?.publishedAt ?? '',
  replyTo,
});

export const youtubeEngagement: AnalyticsAdapter = {
  async analytics(ctx, networkPostIds) {
    const videos = new Map<string, Video>();
    for (let start = 0; start < networkPostIds.length; start += IDS_PER_CALL) {
      const ids = networkPostIds.slice(start, start + IDS_PER_CALL).map(encodeURIComponent).join(',');
      const answer = await get(ctx, `/youtube/v3/videos?part=snippet,statistics,status&id=${ids}`);
      if (!('ok' in answer)) return answer;
      for (const video of (answer.json.items as Video[] | undefined) ?? []) videos.set(video.id, video);
    }
    return networkPostIds.map((id): PostAnalytics => {
      const video = videos.get(id);
      if (!video) return { id, found: false, owned: false, metrics: {}, failedMetrics: [] };
      return { id, found: true, owned: video.snippet?.channelId === ctx.account.accountId, ...numbers(video.statistics, STATISTICS), descriptive: descriptiveOf(video) };
    });
  },

  async accountAnalytics(ctx) {
    const answer = await get(ctx, '/youtube/v3/channels?part=statistics&mine=true');
    if (!('ok' in answer)) return answer;
    const channel = ((answer.json.items as { statistics?: Record<string, string> }[] | undefined) ?? [])[0];
    if (!channel) return failure(101, 'youtube has no channel for this account.');
    return numbers(channel.statistics, CHANNEL_STATISTICS);
  },

  async comments(ctx, networkPostId) {
    const own = await ownVideo(ctx, networkPostId);
    if (own !== true) return own;
    const answer = await get(ctx, `/youtube/v3/commentThreads?part=snippet,replies&videoId=${encodeURIComponent(networkPostId)}&maxResults=100&order=time&textFormat=plainText`);
    if (!('ok' in answer)) return answer;
    const threads = (answer.json.items as { id: string; snippet?: { topLevelComment?: CommentResource }; replies?: { comments?: CommentResource[] } }[] | undefined) ?? [];
    const comments = threads.flatMap((thread) => [
      ...(thread.snippet?.topLevelComment ? [toComment(thread.snippet.topLevelComment, null)] : []),
      ...(thread.replies?.comments ?? []).map((reply) => toComment(reply, reply.snippet?.parentId ?? thread.id)),
    ]);
    return comments.sort((a, b) => a.created.localeCompare(b.created));
  },

  async reply(ctx, networkPostId, commentId, text) {
    const comments = await youtubeEngagement.comments!(ctx, networkPostId);
    if (!Array.isArray(comments)) return comments;
    const comment = comments.find((candidate) => candidate.id === commentId);
    if (!comment) return failure(490, 'No such comment under this video.');
    const answer = await get(ctx, '/youtube/v3/comments?part=snippet', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      // YouTube replies live under a top-level comment: answering a reply answers its thread.
      body: JSON.stringify({ snippet: { parentId: comment.replyTo ?? comment.id, textOriginal: text } }),
    });
    if (!('ok' in answer)) return answer;
    return { kind: 'done', id: String(answer.json.id) };
  },
};
