/**
 * @module
 * The generic sandbox adapter's analytics, comments and replies (analytics-contract.ts), over the sandbox API's
 * engagement routes (sandbox/networks/engagement-api.ts): one `GET /insights?ids=` for up to 100 posts, the
 * account's `GET /accounts/{id}/insights`, `GET /posts/{id}/comments`, `POST /posts/{id}/replies`.
 */
import type { Network } from '@social-link-kit/protocol';
import type { AnalyticsAdapter, NetworkContext, PostAnalytics } from './analytics-contract.js';
import { classifySandboxError } from './sandbox-publish.js';

/** Networks whose API gives post analytics (spec 4.4) and account analytics. */
const ANALYTICS_NETWORKS: readonly Network[] = ['facebook', 'instagram', 'linkedin', 'threads', 'tiktok', 'twitter', 'youtube'];
/** Networks whose API lists comments and lets the account reply. */
const COMMENT_NETWORKS: readonly Network[] = ['facebook', 'instagram', 'linkedin', 'threads', 'tiktok', 'twitter', 'youtube', 'reddit'];

interface InsightsAnswer {
  data: { id: string; found: boolean; owned: boolean; metrics: Record<string, number>; errors?: { metric: string }[]; limited?: boolean; [field: string]: unknown }[];
}

async function bearer(ctx: NetworkContext): Promise<Record<string, string>> {
  const tokens = await ctx.account.tokens();
  const token = tokens.accessToken ?? tokens.access_token;
  return typeof token === 'string' ? { Authorization: `Bearer ${token}` } : {};
}

const DESCRIPTIVE = ['title', 'description', 'tags', 'channelTitle', 'privacyStatus', 'thumbnailUrls'];

export function sandboxEngagementMethods(platform: Network): AnalyticsAdapter {
  const methods: AnalyticsAdapter = {};
  if (ANALYTICS_NETWORKS.includes(platform)) {
    methods.analytics = async (ctx, networkPostIds) => {
      const query = new URLSearchParams({ accountId: ctx.account.accountId, ids: networkPostIds.join(',') });
      const response = await ctx.fetch(`${ctx.baseUrl}/insights?${query}`, { headers: await bearer(ctx) });
      if (!response.ok) return classifySandboxError(response);
      const { data } = (await response.json()) as InsightsAnswer;
      return data.map((item): PostAnalytics => {
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
      const response = await ctx.fetch(`${ctx.baseUrl}/accounts/${encodeURIComponent(ctx.account.accountId)}/insights`, { headers: await bearer(ctx) });
      if (!response.ok) return classifySandboxError(response);
      const answer = (await response.json()) as { metrics: Record<string, number>; errors?: { metric: string }[] };
      return { metrics: answer.metrics, failedMetrics: (answer.errors ?? []).map((error) => error.metric) };
    };
  }
  if (COMMENT_NETWORKS.includes(platform)) {
    methods.comments = async (ctx, networkPostId) => {
      const response = await ctx.fetch(`${ctx.baseUrl}/posts/${encodeURIComponent(networkPostId)}/comments`, { headers: await bearer(ctx) });
      if (!response.ok) return classifySandboxError(response);
      const { comments } = (await response.json()) as { comments: { id: string; text: string; author: string; createdAt: string; replyTo: string | null }[] };
      return comments.map((comment) => ({ id: comment.id, text: comment.text, author: comment.author, created: comment.createdAt, replyTo: comment.replyTo }));
    };
    methods.reply = async (ctx, networkPostId, commentId, text) => {
      const response = await ctx.fetch(`${ctx.baseUrl}/posts/${encodeURIComponent(networkPostId)}/replies`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...(await bearer(ctx)) },
        body: JSON.stringify({ commentId, text }),
      });
      if (!response.ok) return classifySandboxError(response);
      const { id } = (await response.json()) as { id: string };
      return { kind: 'done', id };
    };
  }
  if (platform === 'instagram' || platform === 'facebook') {
    methods.privateReply = async (ctx, commentId, text) => {
      const response = await ctx.fetch(`${ctx.baseUrl}/comments/${encodeURIComponent(commentId)}/private-replies`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...(await bearer(ctx)) },
        body: JSON.stringify({ text }),
      });
      if (!response.ok) return classifySandboxError(response);
      const { id } = (await response.json()) as { id: string };
      return { kind: 'done', id };
    };
  }
  return methods;
}
