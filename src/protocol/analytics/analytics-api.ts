/**
 * @module
 * Requests and answers of the analytics and comments API (spec 2.7, 4.4, 4.8): `POST /analytics/post`,
 * `POST /analytics/social`, `GET /comments/:id`, `POST /comments/:id/reply`. Answers are loose objects: each
 * network's metrics keep the network's own names (docs/analytics.md) and the service may add fields.
 */
import { z } from 'zod';

/** Spec 4.4: the networks whose post analytics can be searched by network post id. */
export const ANALYTICS_PLATFORMS = ['facebook', 'instagram', 'linkedin', 'threads', 'tiktok', 'twitter', 'youtube'] as const;
export type AnalyticsPlatform = (typeof ANALYTICS_PLATFORMS)[number];

/** At most this many network post ids per call. */
export const MAX_ANALYTICS_IDS = 100;

const Id = z.string().min(1).max(200);

export const PostAnalyticsRequest = z.strictObject({
  /** A service post id, or (with `searchPlatformId: true`) one network post id. */
  id: Id.optional(),
  /** Network post ids (with `searchPlatformId: true`). */
  postIds: z.array(Id).min(1).max(MAX_ANALYTICS_IDS).optional(),
  platforms: z.array(z.string().max(40)).min(1).max(20).optional(),
  searchPlatformId: z.boolean().optional(),
});
export type PostAnalyticsRequest = z.infer<typeof PostAnalyticsRequest>;

export const SocialAnalyticsRequest = z.strictObject({
  platforms: z.array(z.string().max(40)).min(1).max(20),
});
export type SocialAnalyticsRequest = z.infer<typeof SocialAnalyticsRequest>;

export const CommentReplyRequest = z.strictObject({
  /** The network's id of the comment answered. */
  commentId: z.string().min(1).max(200),
  /** Exactly one network. */
  platforms: z.array(z.string().max(40)).length(1),
  comment: z.string().min(1).max(10_000),
});
export type CommentReplyRequest = z.infer<typeof CommentReplyRequest>;

export const AnalyticsEntrySchema = z.looseObject({
  id: z.string().optional(),
  status: z.enum(['success', 'error']),
  analytics: z.record(z.string(), z.unknown()).optional(),
  lastUpdated: z.string().optional(),
  backfilledFrom: z.string().optional(),
  recoveredFrom: z.string().optional(),
  limited: z.boolean().optional(),
  owned: z.boolean().optional(),
  code: z.number().optional(),
  message: z.string().optional(),
});
export type AnalyticsEntry = z.infer<typeof AnalyticsEntrySchema>;

/** Keyed by network: one entry (service post id, single network id) or a list (`postIds`). */
export const PostAnalyticsResponse = z.looseObject({ status: z.enum(['success', 'error']), id: z.string().optional() });
export const SocialAnalyticsResponse = z.looseObject({ status: z.enum(['success', 'error']) });

export const CommentSchema = z.looseObject({
  commentId: z.string(),
  comment: z.string(),
  author: z.string(),
  created: z.string(),
  replyTo: z.string().nullable(),
  platform: z.string(),
});
export const CommentsResponse = z.looseObject({ status: z.enum(['success', 'error']), id: z.string() });
export const CommentReplyResponse = z.looseObject({ status: z.literal('success'), commentId: z.string(), id: z.string(), platform: z.string() });
