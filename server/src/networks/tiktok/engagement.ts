/**
 * @module
 * tiktok analytics (analytics-contract.ts) over the Display API v2 with the creator's token (scopes `video.list`,
 * `user.info.stats`):
 * - post analytics: `POST /v2/video/query/?fields=id,…,view_count,like_count,comment_count,share_count`
 *   `{filters: {video_ids: […]}}` (20 ids a call, TikTok's limit); TikTok answers only the creator's own videos, so
 *   an id missing from the answer is not found (186).
 * - account analytics: `GET /v2/user/info/?fields=follower_count,following_count,likes_count,video_count`.
 * Names are TikTok's, camel-cased (`view_count` → `viewCount`). No comments: the Display and Content Posting APIs
 * list none (comment listing is the Research API's, for researchers only), so tiktok posts have no comments here.
 * TikTok answers `{data, error: {code, message, log_id}}`; `error.code` other than `ok` is a failure.
 */
import type { AccountAnalytics, AnalyticsAdapter, NetworkContext, PostAnalytics } from '../analytics-contract.js';
import { fetchApiAnswer, type ApiAnswer } from '../api-answer.js';
import type { PublishFailure } from '../publish-adapter.js';
import { accessTokenOf, failure, isFailure } from '../kit.js';

/** TikTok's `video/query` takes at most 20 ids. */
const IDS_PER_CALL = 20;
const VIDEO_METRICS: Record<string, string> = { viewCount: 'view_count', likeCount: 'like_count', commentCount: 'comment_count', shareCount: 'share_count' };
const USER_METRICS: Record<string, string> = { followerCount: 'follower_count', followingCount: 'following_count', likesCount: 'likes_count', videoCount: 'video_count' };


async function call(ctx: NetworkContext, path: string, body?: unknown): Promise<ApiAnswer | PublishFailure> {
  const token = await accessTokenOf(ctx);
  if (isFailure(token)) return token;
  const headers: Record<string, string> = { Authorization: `Bearer ${token}`, ...(body !== undefined && { 'Content-Type': 'application/json; charset=UTF-8' }) };
  const answer = await fetchApiAnswer(ctx, `${ctx.baseUrl.replace(/\/+$/, '')}${path}`, { method: body === undefined ? 'GET' : 'POST', headers, ...(body !== undefined && { body: JSON.stringify(body) }) });
  const code = (answer.json.error as { code?: unknown } | undefined)?.code;
  return answer.status === 200 && code === 'ok' ? answer : readFailure(answer);
}

/** TikTok's error → the spec's terms. */
function readFailure(answer: ApiAnswer): PublishFailure {
  const error = (answer.json.error ?? {}) as { code?: unknown; message?: unknown };
  const code = typeof error.code === 'string' ? error.code : '';
  const details = { httpStatus: answer.status, ...(code && { networkCode: code }), ...(typeof error.message === 'string' && { network: error.message.slice(0, 300) }) };
  if (answer.status === 0 || answer.status >= 500 || code === 'internal_error') return failure(503, `tiktok analytics are unavailable (HTTP ${answer.status}); try again later.`, { retryAvailable: true, details });
  if (answer.status === 429 || code === 'rate_limit_exceeded') return failure(429, 'tiktok rate limit reached; try again later.', { retryAvailable: true, retryAfterMs: 60_000, details });
  if (answer.status === 401 || /access_token_invalid|token_expired/.test(code)) return failure(401, "tiktok no longer accepts the account's token; link the account again.", { relink: true, details });
  if (code === 'scope_not_authorized') return failure(401, 'The tiktok account was linked without the video.list and user.info.stats scopes; link it again.', { relink: true, details });
  return failure(101, `tiktok refused the request: ${typeof error.message === 'string' ? error.message.slice(0, 200) : `HTTP ${answer.status}`}`, { details });
}

function countsOf(source: Record<string, unknown>, table: Record<string, string>): AccountAnalytics {
  const metrics: Record<string, number> = {};
  const failedMetrics: string[] = [];
  for (const [name, field] of Object.entries(table)) {
    if (typeof source[field] === 'number') metrics[name] = source[field];
    else failedMetrics.push(name);
  }
  return { metrics, failedMetrics };
}

export const tiktokEngagement: AnalyticsAdapter = {
  async analytics(ctx, networkPostIds) {
    const videos = new Map<string, Record<string, unknown>>();
    const fields = ['id', 'title', 'video_description', 'create_time', 'share_url', ...Object.values(VIDEO_METRICS)].join(',');
    for (let start = 0; start < networkPostIds.length; start += IDS_PER_CALL) {
      const answer = await call(ctx, `/v2/video/query/?fields=${fields}`, { filters: { video_ids: networkPostIds.slice(start, start + IDS_PER_CALL) } });
      if ('kind' in answer) return answer;
      for (const video of ((answer.json.data as { videos?: Record<string, unknown>[] } | undefined)?.videos ?? [])) videos.set(String(video.id), video);
    }
    return networkPostIds.map((id): PostAnalytics => {
      const video = videos.get(id);
      return video ? { id, found: true, owned: true, ...countsOf(video, VIDEO_METRICS) } : { id, found: false, owned: false, metrics: {}, failedMetrics: [] };
    });
  },

  async accountAnalytics(ctx) {
    const answer = await call(ctx, `/v2/user/info/?fields=open_id,${Object.values(USER_METRICS).join(',')}`);
    if ('kind' in answer) return answer;
    return countsOf(((answer.json.data as { user?: Record<string, unknown> } | undefined)?.user ?? {}), USER_METRICS);
  },
};
