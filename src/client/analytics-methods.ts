/**
 * @module
 * Analytics and comments in the typed client: post analytics by service post id or by network post ids, account
 * analytics, comments of a post and replies. Answers are keyed by network; each network's metrics keep the names
 * that network reports (docs/analytics.md).
 */
import { z } from 'zod';
import {
  AutomationActivityResponse,
  CreateAutomationResponse,
  ListAutomationsResponse,
  type CreateAutomationRequest,
  CommentReplyResponse,
  CommentsResponse,
  PostAnalyticsResponse,
  SocialAnalyticsResponse,
  type AnalyticsPlatform,
} from '../protocol/analytics/index.js';
import type { Network } from '../protocol/index.js';
import type { CallOptions } from './link-client.js';

type Call = <T extends z.ZodType>(schema: T, method: string, path: string, body: unknown, callOptions?: CallOptions) => Promise<z.infer<T>>;

export function analyticsMethods(call: Call) {
  return {
    /** Analytics of a service post on each analytics network it was published on (or those of `platforms`). */
    getPostAnalytics: (id: string, platforms?: AnalyticsPlatform[], call_?: CallOptions) =>
      call(PostAnalyticsResponse, 'POST', '/analytics/post', { id, ...(platforms && { platforms }) }, call_),
    /** Analytics by network post id: one id, or up to 100; exactly one network; the account must own them (not on youtube). */
    getPostAnalyticsByNetworkId: (ids: string | string[], platform: AnalyticsPlatform, call_?: CallOptions) =>
      call(
        PostAnalyticsResponse,
        'POST',
        '/analytics/post',
        { ...(Array.isArray(ids) ? { postIds: ids } : { id: ids }), platforms: [platform], searchPlatformId: true },
        call_,
      ),
    /** A service post's stored analytics over time per network (`[{takenAt, analytics}]`, oldest first, 30 days). */
    getPostAnalyticsHistory: (id: string, call_?: CallOptions) =>
      call(z.looseObject({ status: z.literal('success'), id: z.string() }), 'GET', `/analytics/post/${encodeURIComponent(id)}/history`, undefined, call_),
    /** Account-level analytics (followers and the like) per network. */
    getSocialAnalytics: (platforms: AnalyticsPlatform[], call_?: CallOptions) => call(SocialAnalyticsResponse, 'POST', '/analytics/social', { platforms }, call_),
    /** Comments of a service post per network; with `networkPostIdOn`, `id` is that network's post id. */
    getComments: (id: string, networkPostIdOn?: Network, call_?: CallOptions) => {
      const query = networkPostIdOn ? `?${new URLSearchParams({ searchPlatformId: 'true', platform: networkPostIdOn })}` : '';
      return call(CommentsResponse, 'GET', `/comments/${encodeURIComponent(id)}${query}`, undefined, call_);
    },
    /** A comment-triggered private reply on instagram or facebook. */
    createAutomation: (automation: CreateAutomationRequest, call_?: CallOptions) => call(CreateAutomationResponse, 'POST', '/automations', automation, call_),
    listAutomations: (call_?: CallOptions) => call(ListAutomationsResponse, 'GET', '/automations', undefined, call_),
    /** Pauses (`true`) or resumes (`false`) an automation. */
    pauseAutomation: (id: string, paused: boolean, call_?: CallOptions) =>
      call(CreateAutomationResponse, 'PATCH', `/automations/${encodeURIComponent(id)}`, { paused }, call_),
    deleteAutomation: (id: string, call_?: CallOptions) =>
      call(z.looseObject({ status: z.literal('success'), id: z.string() }), 'DELETE', `/automations/${encodeURIComponent(id)}`, undefined, call_),
    /** What the automation did, newest first: `sent`, `failed` (490-495 in `actionResults[].errorDetails`) or `auth_error`. */
    getAutomationActivity: (id: string, call_?: CallOptions) =>
      call(AutomationActivityResponse, 'GET', `/automations/${encodeURIComponent(id)}/activity`, undefined, call_),
    /** Local moderation of a text (and media URL addresses) before posting; 438 for input it cannot take. */
    validateModeration: (input: { post?: string; mediaUrls?: string[] }, call_?: CallOptions) =>
      call(z.looseObject({ status: z.literal('success'), flagged: z.boolean() }), 'POST', '/validate/moderation', input, call_),
    /** Replies to a comment under a service post, on one network. */
    replyToComment: (id: string, reply: { commentId: string; platform: Network; comment: string }, call_?: CallOptions) =>
      call(CommentReplyResponse, 'POST', `/comments/${encodeURIComponent(id)}/reply`, { commentId: reply.commentId, platforms: [reply.platform], comment: reply.comment }, call_),
  };
}
