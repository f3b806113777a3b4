/**
 * @module
 * The generic sandbox adapter's analytics, comments and replies (analytics-contract.ts), over the sandbox API's
 * engagement routes (sandbox/networks/engagement-api.ts): one `GET /insights?ids=` for up to 100 posts, the
 * account's `GET /accounts/{id}/insights`, `GET /posts/{id}/comments`, `POST /posts/{id}/replies`.
 */
import type { Network } from '@social-link-kit/protocol';
import type { AnalyticsAdapter, PostAnalytics } from './analytics-contract.js';
import { isFailure } from './kit.js';
import { callSandbox } from './sandbox-client.js';

/** Networks whose API gives post analytics (spec 4.4) and account analytics. */
const ANALYTICS_NETWORKS: readonly Network[] = ['facebook', 'instagram', 'linkedin', 'threads', 'tiktok', 'twitter', 'youtube'];
/** Networks whose API lists comments and lets the account reply. */
const COMMENT_NETWORKS: readonly Network[] = ['facebook', 'instagram', 'linkedin', 'threads', 'tiktok', 'twitter', 'youtube', 'reddit'];

interface InsightsAnswer {
  data: { id: string; found: boolean; owned: boolean; metrics: Record<string, number>; errors?: { metric: string }[]; limited?: boolean; [field: string]: unknown }[];
}

const DESCRIPTIVE = ['title', 'description', 'tags', 'channelTitle', 'privacyStatus', 'thumbnailUrls'];

export function sandboxEngagementMethods(platform: Network): AnalyticsAdapter {
  const methods: AnalyticsAdapter = {};
  if (ANALYTICS_NETWORKS.includes(platform)) {
    methods.analytics = async (ctx, networkPostIds) => {
      const query = new URLSearchParams({ accountId: ctx.account.accountId, ids: networkPostIds.join(',') });
      const answer = await callSandbox<InsightsAnswer>(ctx, `/insights?${query}`);
      if (isFailure(answer)) return answer;
      return answer.data.map((item): PostAnalytics => {
        const descriptive = Object.fromEntries(DESCRIPTIVE.filter((field) => field in item).map((field) => [field, item[field]]));
        return {
          id: item.id,
          found: item.found,
          owned: item.owned,
          metrics: item.metrics,
          failedMetrics: (item.errors ?? []).map((error) => error.metric),
          ...(Object.keys(descriptive).length > 0 && { descriptive }),
          ...(item.limited && { limited: true }),
        };
      });
    };
    methods.accountAnalytics = async (ctx) => {
      const answer = await callSandbox<{ metrics: Record<string, number>; errors?: { metric: string }[] }>(ctx, `/accounts/${encodeURIComponent(ctx.account.accountId)}/insights`);
      if (isFailure(answer)) return answer;
      return { metrics: answer.metrics, failedMetrics: (answer.errors ?? []).map((error) => error.metric) };
    };
  }
  if (COMMENT_NETWORKS.includes(platform)) {
    methods.comments = async (ctx, networkPostId) => {
      const answer = await callSandbox<{ comments: { id: string; text: string; author: string; createdAt: string; replyTo: string | null }[] }>(ctx, `/posts/${encodeURIComponent(networkPostId)}/comments`);
      if (isFailure(answer)) return answer;
      return answer.comments.map((comment) => ({ id: comment.id, text: comment.text, author: comment.author, created: comment.createdAt, replyTo: comment.replyTo }));
    };
    methods.reply = async (ctx, networkPostId, commentId, text) => {
      const answer = await callSandbox<{ id: string }>(ctx, `/posts/${encodeURIComponent(networkPostId)}/replies`, { commentId, text });
      return isFailure(answer) ? answer : { kind: 'done', id: answer.id };
    };
  }
  if (platform === 'instagram' || platform === 'facebook') {
    methods.privateReply = async (ctx, commentId, text) => {
      const answer = await callSandbox<{ id: string }>(ctx, `/comments/${encodeURIComponent(commentId)}/private-replies`, { text });
      return isFailure(answer) ? answer : { kind: 'done', id: answer.id };
    };
  }
  return methods;
}
