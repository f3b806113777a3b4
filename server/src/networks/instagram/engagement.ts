/**
 * @module
 * instagram analytics, comments and replies on the Graph API (analytics-contract.ts), `account.accountId` being the
 * professional account id:
 * - post: `GET /{media-id}/insights?metric=impressions,reach,likes,comments,saved,shares,views` (names kept). Media
 *   posted before the account's conversion to business has no insights (Graph code 10, subcode 2108006): its
 *   `like_count` and `comments_count` fields are read instead and the answer is `limited`;
 * - account: `GET /{ig-user-id}?fields=followers_count,follows_count,media_count`;
 * - comments: `GET /{media-id}/comments?fields=id,text,username,timestamp,replies{id,text,username,timestamp}`
 *   (replies flattened after their comment); reply: `POST /{ig-comment-id}/replies {message}`;
 * - private reply: `POST /{ig-user-id}/messages {recipient: {comment_id}, message: {text}}` (meta/insights.ts).
 */
import type { AnalyticsAdapter, NetworkComment, PostAnalytics } from '../analytics-contract.js';
import type { PublishFailure } from '../publish-adapter.js';
import { isoOf, listGraphEdge } from '../meta/comments.js';
import { classifyAnalyticsError, classifyCommentError, isNotFound } from '../meta/engagement-errors.js';
import { callGraph } from '../meta/graph.js';
import { eachPost, insightValues, metricsFrom, notFound, postInsights, sendPrivateReply } from '../meta/insights.js';

const POST_METRICS = { impressions: 'impressions', reach: 'reach', likes: 'likes', comments: 'comments', saved: 'saved', shares: 'shares', views: 'views' };
/** What media from before the business conversion still tells: its public counters. */
const LIMITED_FIELDS = { like_count: 'likes', comments_count: 'comments' };
export const IG_SUBCODE_BEFORE_CONVERSION = 2108006;
const ACCOUNT_FIELDS = { followers_count: 'followersCount', follows_count: 'followsCount', media_count: 'mediaCount' };

interface GraphComment {
  id?: unknown;
  text?: unknown;
  username?: unknown;
  timestamp?: unknown;
  replies?: { data?: GraphComment[] };
}

function commentOf(item: GraphComment, replyTo: string | null): NetworkComment | null {
  if (typeof item.id !== 'string') return null;
  return { id: item.id, text: typeof item.text === 'string' ? item.text : '', author: typeof item.username === 'string' ? item.username : '', created: isoOf(item.timestamp), replyTo };
}

async function limitedAnalytics(ctx: Parameters<NonNullable<AnalyticsAdapter['analytics']>>[0], id: string): Promise<PostAnalytics | PublishFailure> {
  const answer = await callGraph(ctx, 'GET', `/${encodeURIComponent(id)}`, { fields: Object.keys(LIMITED_FIELDS).join(',') });
  if (!answer.ok) return isNotFound(answer) ? notFound(id) : classifyAnalyticsError('instagram', answer);
  return { id, found: true, owned: true, ...metricsFrom(new Map(Object.entries(answer.body)), LIMITED_FIELDS), limited: true };
}

export const instagramEngagement: AnalyticsAdapter = {
  async analytics(ctx, ids) {
    return eachPost(ids, async (id) => {
      const outcome = await postInsights(ctx, 'instagram', id, Object.keys(POST_METRICS));
      if (outcome.kind === 'not-found') return notFound(id);
      if (outcome.kind === 'failed') {
        return outcome.answer.error.code === 10 && outcome.answer.error.subcode === IG_SUBCODE_BEFORE_CONVERSION ? limitedAnalytics(ctx, id) : outcome.failure;
      }
      return { id, found: true, owned: true, ...metricsFrom(insightValues(outcome.body), POST_METRICS) };
    });
  },

  async accountAnalytics(ctx) {
    const answer = await callGraph(ctx, 'GET', `/${encodeURIComponent(ctx.account.accountId)}`, { fields: Object.keys(ACCOUNT_FIELDS).join(',') });
    if (!answer.ok) return classifyAnalyticsError('instagram', answer);
    return metricsFrom(new Map(Object.entries(answer.body)), ACCOUNT_FIELDS);
  },

  async comments(ctx, mediaId) {
    const toComments = (item: GraphComment): NetworkComment[] => {
      const top = commentOf(item, null);
      if (!top) return [];
      const replies = (item.replies?.data ?? []).map((reply) => commentOf(reply, top.id)).filter((reply): reply is NetworkComment => reply !== null);
      return [top, ...replies];
    };
    return listGraphEdge(ctx, 'instagram', `/${encodeURIComponent(mediaId)}/comments`, { fields: 'id,text,username,timestamp,replies{id,text,username,timestamp}' }, toComments);
  },

  async reply(ctx, _mediaId, commentId, text) {
    const answer = await callGraph(ctx, 'POST', `/${encodeURIComponent(commentId)}/replies`, { message: text });
    if (!answer.ok) return classifyCommentError('instagram', answer, 'comment');
    return { kind: 'done', id: String(answer.body.id) };
  },

  privateReply: (ctx, commentId, text) => sendPrivateReply(ctx, 'instagram', commentId, text),
};
