/**
 * @module
 * threads analytics, replies and answering them on graph.threads.net (analytics-contract.ts), `account.accountId`
 * being the threads user id:
 * - post: `GET /{threads-media-id}/insights?metric=views,likes,replies,reposts,quotes,shares` (names kept);
 * - account: `GET /{threads-user-id}/threads_insights?metric=followers_count` (`total_value`) → `followersCount`;
 * - comments are the replies: `GET /{threads-media-id}/conversation?fields=id,text,username,timestamp,replied_to`
 *   (every depth; a reply to the post itself has no `replyTo`);
 * - reply: a TEXT container with `reply_to_id` (`POST /{threads-user-id}/threads`), then, once its status is
 *   FINISHED, `POST /{threads-user-id}/threads_publish {creation_id}`; a container not finished at once → 522 with
 *   retry (text containers normally are). threads has no private replies.
 */
import type { AnalyticsAdapter, NetworkComment } from '../analytics-contract.js';
import { isoOf, listGraphEdge } from '../meta/comments.js';
import { classifyAnalyticsError, classifyCommentError } from '../meta/engagement-errors.js';
import { classifyGraphError } from '../meta/classify.js';
import { callGraph } from '../meta/graph.js';
import { eachPost, insightValues, metricsFrom, notFound, postInsights } from '../meta/insights.js';
import { failure } from '../kit.js';

const POST_METRICS = { views: 'views', likes: 'likes', replies: 'replies', reposts: 'reposts', quotes: 'quotes', shares: 'shares' };
const ACCOUNT_METRICS = { followers_count: 'followersCount' };

interface GraphReply {
  id?: unknown;
  text?: unknown;
  username?: unknown;
  timestamp?: unknown;
  replied_to?: { id?: unknown };
}


export const threadsEngagement: AnalyticsAdapter = {
  async analytics(ctx, ids) {
    return eachPost(ids, async (id) => {
      const outcome = await postInsights(ctx, 'threads', id, Object.keys(POST_METRICS));
      if (outcome.kind === 'not-found') return notFound(id);
      if (outcome.kind === 'failed') return outcome.failure;
      return { id, found: true, owned: true, ...metricsFrom(insightValues(outcome.body), POST_METRICS) };
    });
  },

  async accountAnalytics(ctx) {
    const answer = await callGraph(ctx, 'GET', `/${encodeURIComponent(ctx.account.accountId)}/threads_insights`, { metric: Object.keys(ACCOUNT_METRICS).join(',') });
    if (!answer.ok) return classifyAnalyticsError('threads', answer);
    return metricsFrom(insightValues(answer.body), ACCOUNT_METRICS);
  },

  async comments(ctx, mediaId) {
    const toComments = (item: GraphReply): NetworkComment[] => {
      if (typeof item.id !== 'string') return [];
      const parent = typeof item.replied_to?.id === 'string' ? item.replied_to.id : null;
      return [
        {
          id: item.id,
          text: typeof item.text === 'string' ? item.text : '',
          author: typeof item.username === 'string' ? item.username : '',
          created: isoOf(item.timestamp),
          replyTo: parent === mediaId ? null : parent,
        },
      ];
    };
    return listGraphEdge(ctx, 'threads', `/${encodeURIComponent(mediaId)}/conversation`, { fields: 'id,text,username,timestamp,replied_to' }, toComments);
  },

  async reply(ctx, _mediaId, commentId, text) {
    const user = encodeURIComponent(ctx.account.accountId);
    const container = await callGraph(ctx, 'POST', `/${user}/threads`, { media_type: 'TEXT', text, reply_to_id: commentId });
    if (!container.ok) return classifyCommentError('threads', container, 'comment');
    const id = String(container.body.id);
    const status = await callGraph(ctx, 'GET', `/${encodeURIComponent(id)}`, { fields: 'status,error_message' });
    if (!status.ok) return classifyGraphError('threads', status);
    if (status.body.status !== 'FINISHED') return failure(522, 'threads has not finished the reply yet; try again.', { retryAvailable: true });
    const published = await callGraph(ctx, 'POST', `/${user}/threads_publish`, { creation_id: id });
    if (!published.ok) return classifyGraphError('threads', published);
    return { kind: 'done', id: String(published.body.id) };
  },
};
