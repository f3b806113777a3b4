/**
 * @module
 * facebook Page analytics, comments and replies on the Graph API with the page's token (analytics-contract.ts):
 * - post: `GET /{post-id}/insights?metric=post_impressions,post_impressions_unique,post_reactions_by_type_total,
 *   post_clicks,post_video_views,post_activity_by_action_type&period=lifetime` → `impressions`, `reach`,
 *   `reactions` (the sum of the breakdown), `clicks`, `videoViews`, and `comments` / `shares` from the
 *   activity breakdown (`{comment, share}`);
 * - account: `GET /{page-id}?fields=fan_count,followers_count` → `fanCount`, `followersCount`;
 * - comments: `GET /{post-id}/comments?filter=stream&order=chronological&fields=id,message,from{name},created_time,
 *   parent{id}` (every level; `parent` is the comment answered); reply: `POST /{comment-id}/comments {message}`;
 * - private reply: `POST /{page-id}/messages {recipient: {comment_id}, message: {text}}` (meta/insights.ts).
 * The page throttle (Graph 4/17/32/613/80001) is 444 (meta/engagement-errors.ts).
 */
import type { AnalyticsAdapter, NetworkComment } from '../analytics-contract.js';
import { listGraphEdge, isoOf } from '../meta/comments.js';
import { classifyAnalyticsError, classifyCommentError } from '../meta/engagement-errors.js';
import { callGraph } from '../meta/graph.js';
import { countOf, eachPost, insightValues, metricsFrom, notFound, postInsights, sendPrivateReply } from '../meta/insights.js';

const POST_METRICS = {
  post_impressions: 'impressions',
  post_impressions_unique: 'reach',
  post_reactions_by_type_total: 'reactions',
  post_clicks: 'clicks',
  post_video_views: 'videoViews',
};
const ACTIVITY = 'post_activity_by_action_type';
const ACCOUNT_FIELDS = { fan_count: 'fanCount', followers_count: 'followersCount' };

interface GraphComment {
  id?: unknown;
  message?: unknown;
  from?: { name?: unknown; id?: unknown };
  created_time?: unknown;
  parent?: { id?: unknown };
}

export const facebookEngagement: AnalyticsAdapter = {
  async analytics(ctx, ids) {
    return eachPost(ids, async (id) => {
      const outcome = await postInsights(ctx, 'facebook', id, [...Object.keys(POST_METRICS), ACTIVITY], { period: 'lifetime' });
      if (outcome.kind === 'not-found') return notFound(id);
      if (outcome.kind === 'failed') return outcome.failure;
      const values = insightValues(outcome.body);
      const { metrics, failedMetrics } = metricsFrom(values, POST_METRICS);
      const activity = values.get(ACTIVITY) as Record<string, unknown> | undefined;
      for (const [key, name] of [['comment', 'comments'], ['share', 'shares']] as const) {
        const count = activity ? (countOf(activity[key]) ?? 0) : null;
        if (count === null) failedMetrics.push(name);
        else metrics[name] = count;
      }
      return { id, found: true, owned: true, metrics, failedMetrics };
    });
  },

  async accountAnalytics(ctx) {
    const answer = await callGraph(ctx, 'GET', `/${encodeURIComponent(ctx.account.accountId)}`, { fields: Object.keys(ACCOUNT_FIELDS).join(',') });
    if (!answer.ok) return classifyAnalyticsError('facebook', answer);
    return metricsFrom(new Map(Object.entries(answer.body)), ACCOUNT_FIELDS);
  },

  async comments(ctx, postId) {
    const toComments = (item: GraphComment): NetworkComment[] =>
      typeof item.id === 'string'
        ? [
            {
              id: item.id,
              text: typeof item.message === 'string' ? item.message : '',
              author: typeof item.from?.name === 'string' ? item.from.name : '',
              created: isoOf(item.created_time),
              replyTo: typeof item.parent?.id === 'string' ? item.parent.id : null,
            },
          ]
        : [];
    return listGraphEdge(ctx, 'facebook', `/${encodeURIComponent(postId)}/comments`, { filter: 'stream', order: 'chronological', fields: 'id,message,from{name},created_time,parent{id}' }, toComments);
  },

  async reply(ctx, _postId, commentId, text) {
    const answer = await callGraph(ctx, 'POST', `/${encodeURIComponent(commentId)}/comments`, { message: text });
    if (!answer.ok) return classifyCommentError('facebook', answer, 'comment');
    return { kind: 'done', id: String(answer.body.id) };
  },

  privateReply: (ctx, commentId, text) => sendPrivateReply(ctx, 'facebook', commentId, text),
};
