/**
 * @module
 * The sandbox YouTube Data API's reads after a video is out, at `/sandbox/youtube`, with the paths and shapes of
 * www.googleapis.com (the channel's Bearer token, as youtube-api.ts):
 * - `GET /youtube/v3/videos?part=snippet,statistics,status&id=a,b` (≤ 50 ids) → `{items: [{id, snippet, statistics,
 *   status}]}` (only the parts asked): the channel's own videos, and another channel's public ones (as YouTube lists
 *   every public video to anyone; an unlisted or private one only to its channel); statistics are strings. A `part`
 *   without `snippet` or `statistics` is left to youtube-api.ts.
 * - `GET /youtube/v3/channels?part=statistics&mine=true` → `{items: [{id, statistics}]}`.
 * - `GET /youtube/v3/commentThreads?part=snippet,replies&videoId=` (a video the channel sees, as above) → `{items: [{id, snippet: {videoId,
 *   topLevelComment, totalReplyCount}, replies: {comments}}]}`: the audience's comments
 *   (`POST /sandbox/net/youtube/p/{id}/audience-comments`) and the channel's, replies nested under their thread.
 * - `POST /youtube/v3/comments?part=snippet {snippet: {parentId, textOriginal}}` → the reply (404 commentNotFound),
 *   under the channel's own videos only: the sandbox writes a reply as the video's channel, so it refuses to answer
 *   under another channel's video rather than speak for it (YouTube would post it as the caller).
 * Numbers grow with the service clock; the channel's analytics fault (insights-faults.ts) applies: `down` → 503
 * backendError, `444` → 403 quotaExceeded, `475` → 403 forbidden, `partial` → its videos' first statistic missing.
 */
import type { SandboxEnv, SandboxHost } from '@social-link-kit/server/sandbox-host.js';
import { Hono, type Context } from 'hono';
import { addReply, commentsUnder, findComment, sandboxPostMetrics, youtubeVisibleTo, type StoredComment } from './engagement-store.js';
import { grownMetrics } from './insight-metrics.js';
import { insightsFaultOf, type InsightsFault } from './insights-faults.js';
import { containsNul } from './input-guards.js';
import { bearerOf, checkSandboxToken, sandboxStoreOf } from './sandbox-tokens.js';
import type { SandboxPost } from './store.js';
import { answerYoutubeErrors, GoogleApiError } from './youtube-api.js';

const MAX_IDS = 50;
/** Per hour, under YouTube's names. */
const VIDEO_RATES = { viewCount: 90, likeCount: 8, favoriteCount: 0, commentCount: 2 };
const CHANNEL_RATES = { subscriberCount: 4, viewCount: 90 };

const FAULT_ERRORS: Record<string, GoogleApiError> = {
  down: new GoogleApiError(503, 'backendError', 'Backend Error'),
  '444': new GoogleApiError(403, 'quotaExceeded', 'The request cannot be completed because you have exceeded your quota.'),
  '475': new GoogleApiError(403, 'forbidden', 'The request is not properly authorized.'),
};

const strings = (metrics: Record<string, number>) => Object.fromEntries(Object.entries(metrics).map(([name, value]) => [name, String(value)]));

export function sandboxYoutubeEngagementRoutes(deps: SandboxHost): Hono<SandboxEnv> {
  const routes = new Hono<SandboxEnv>();
  const store = () => sandboxStoreOf(deps.storage);
  const db = () => deps.storage.driver;

  answerYoutubeErrors(routes, 'youtube.api');

  /** The channel of the token, after its analytics fault. */
  async function channelOf(c: Context<SandboxEnv>): Promise<{ channel: string; fault: InsightsFault | undefined }> {
    const token = bearerOf(c.req.header('authorization'));
    const now = deps.clock();
    const check = await checkSandboxToken(store(), token, 'youtube', 'access', now);
    if (!check.ok) throw new GoogleApiError(401, 'authError', 'Invalid Credentials');
    const fault = insightsFaultOf(deps.storage, 'youtube', check.accountId);
    if (fault && FAULT_ERRORS[fault]) throw FAULT_ERRORS[fault];
    return { channel: check.accountId, fault };
  }

  /** A published video `channel` may see: its own, or another channel's public one. */
  const liveVideo = async (id: string, channel: string) => {
    const video = await store().findByPlatformId('youtube', id);
    return video && video.deletedAt === null && video.status === 'published' && youtubeVisibleTo(video, channel) ? video : null;
  };

  function resourceOf(video: SandboxPost, fault: InsightsFault | undefined, owned: boolean) {
    const resource = (video.record as { resource?: { snippet?: Record<string, unknown>; status?: Record<string, unknown> } } | null)?.resource ?? {};
    const snippet = resource.snippet ?? {};
    const { metrics } = sandboxPostMetrics(VIDEO_RATES, video, deps.clock(), owned ? fault : undefined);
    return {
      kind: 'youtube#video',
      id: video.networkId,
      snippet: {
        publishedAt: new Date(video.readyAt).toISOString(),
        channelId: video.accountId,
        title: typeof snippet.title === 'string' ? snippet.title : video.text.slice(0, 100),
        description: typeof snippet.description === 'string' ? snippet.description : '',
        tags: Array.isArray(snippet.tags) ? snippet.tags : [],
        channelTitle: `Sandbox channel ${video.accountId}`,
        thumbnails: { default: { url: `${deps.config.publicUrl}/sandbox/youtube/vi/${video.networkId}/default.jpg`, width: 120, height: 90 } },
      },
      statistics: strings(metrics),
      status: { privacyStatus: typeof resource.status?.privacyStatus === 'string' ? resource.status.privacyStatus : 'private', uploadStatus: 'processed' },
    };
  }

  routes.get('/youtube/v3/videos', async (c, next) => {
    const parts = (c.req.query('part') ?? '').split(',');
    if (!parts.includes('statistics') && !parts.includes('snippet')) return next();
    const { channel, fault } = await channelOf(c);
    const ids = (c.req.query('id') ?? '').split(',').filter(Boolean);
    if (ids.length === 0 || ids.length > MAX_IDS) throw new GoogleApiError(400, 'invalidParameter', `The id parameter takes 1 to ${MAX_IDS} video ids.`);
    const items = [];
    for (const id of ids) {
      const video = await liveVideo(id, channel);
      if (!video) continue;
      const resource: Record<string, unknown> = resourceOf(video, fault, video.accountId === channel);
      for (const part of ['snippet', 'statistics', 'status']) if (!parts.includes(part)) delete resource[part];
      items.push(resource);
    }
    return c.json({ kind: 'youtube#videoListResponse', pageInfo: { totalResults: items.length, resultsPerPage: items.length }, items });
  });

  routes.get('/youtube/v3/channels', async (c) => {
    const { channel, fault } = await channelOf(c);
    if (c.req.query('mine') !== 'true') throw new GoogleApiError(400, 'invalidParameter', 'The sandbox answers mine=true only.');
    const posts = await store().listForAccounts([{ platform: 'youtube', accountId: channel }], 1000);
    const live = posts.filter((post) => post.deletedAt === null);
    const first = posts.length > 0 ? Math.min(...posts.map((post) => post.createdAt)) : deps.clock();
    const statistics: Record<string, string | boolean> = { ...strings(grownMetrics(CHANNEL_RATES, first, deps.clock(), 100)), videoCount: String(live.length), hiddenSubscriberCount: false };
    // A channel that hides its subscriber count answers without it, as `partial` does here.
    if (fault === 'partial') {
      delete statistics.subscriberCount;
      statistics.hiddenSubscriberCount = true;
    }
    return c.json({ kind: 'youtube#channelListResponse', items: [{ kind: 'youtube#channel', id: channel, statistics }] });
  });

  const commentResource = (comment: StoredComment, video: SandboxPost, parentId: string | null) => ({
    kind: 'youtube#comment',
    id: comment.id,
    snippet: {
      videoId: video.networkId,
      textOriginal: comment.text,
      textDisplay: comment.text,
      authorDisplayName: comment.author ?? `Sandbox channel ${video.accountId}`,
      authorChannelId: { value: comment.author ?? video.accountId },
      publishedAt: new Date(comment.createdAt).toISOString(),
      ...(parentId && { parentId }),
    },
  });

  routes.get('/youtube/v3/commentThreads', async (c) => {
    const { channel } = await channelOf(c);
    const video = await liveVideo(c.req.query('videoId') ?? '', channel);
    if (!video) throw new GoogleApiError(404, 'videoNotFound', 'The video identified by the videoId parameter could not be found.');
    const comments = await commentsUnder(db(), video.id);
    const byId = new Map(comments.map((comment) => [comment.id, comment]));
    // YouTube threads are one level deep: a reply to a reply belongs to the top-level comment of its chain.
    const threadOf = (comment: StoredComment): string => {
      let current = comment;
      for (let depth = 0; current.replyTo && byId.has(current.replyTo) && depth < 100; depth++) current = byId.get(current.replyTo)!;
      return current.id;
    };
    const items = comments
      .filter((comment) => comment.replyTo === null)
      .map((top) => {
        const replies = comments.filter((comment) => comment.replyTo !== null && threadOf(comment) === top.id);
        return {
          kind: 'youtube#commentThread',
          id: top.id,
          snippet: { videoId: video.networkId, topLevelComment: commentResource(top, video, null), totalReplyCount: replies.length, canReply: true },
          ...(replies.length > 0 && { replies: { comments: replies.map((reply) => commentResource(reply, video, top.id)) } }),
        };
      });
    return c.json({ kind: 'youtube#commentThreadListResponse', items });
  });

  routes.post('/youtube/v3/comments', async (c) => {
    const { channel } = await channelOf(c);
    const body = (await c.req.json().catch(() => null)) as { snippet?: { parentId?: unknown; textOriginal?: unknown } } | null;
    const parentId = body?.snippet?.parentId;
    const text = body?.snippet?.textOriginal;
    if (typeof parentId !== 'string' || typeof text !== 'string' || text.trim() === '' || text.length > 10_000 || containsNul(text)) {
      throw new GoogleApiError(400, 'invalidCommentMetadata', 'The request metadata is invalid.');
    }
    const parent = await findComment(db(), 'youtube', parentId);
    if (!parent || parent.accountId !== channel) throw new GoogleApiError(404, 'commentNotFound', 'The comment identified by the parentId parameter could not be found.');
    const id = await addReply(db(), parent.postId, text, parent.id, deps.clock());
    return c.json({ kind: 'youtube#comment', id, snippet: { parentId, textOriginal: text, authorChannelId: { value: channel }, publishedAt: new Date(deps.clock()).toISOString() } });
  });

  return routes;
}
