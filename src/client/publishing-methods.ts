/**
 * @module
 * The posts API in the typed client: create, validate, get, update (approve, pause, reschedule), delete, retry,
 * history. Answers are checked against the protocol schemas like every other call.
 */
import type { z } from 'zod';
import type { Network } from '../protocol/index.js';
import {
  CreatePostResponse,
  DeletePostResponse,
  HistoryResponse,
  PostAttemptsResponse,
  PostRecordSchema,
  RetryPostResponse,
  UpdatePostResponse,
  ValidatePostResponse,
  YoutubeCategoriesResponse,
  YoutubeWatermarkRemovedResponse,
  YoutubeWatermarkResponse,
  type PostRequest,
  type YoutubeWatermarkRequest,
  type PostStatus,
} from '../protocol/publishing/index.js';
import type { CallOptions } from './link-client.js';

type Call = <T extends z.ZodType>(schema: T, method: string, path: string, body: unknown, callOptions?: CallOptions) => Promise<z.infer<T>>;

export interface PostChange {
  id: string;
  approved?: true;
  scheduleDate?: string;
  scheduledPause?: boolean;
  notes?: string;
  /** The preview's `renditionHash` (`validatePost`): refused (101) when what would be sent differs. */
  expectedRenditionHash?: string;
}

export interface HistoryFilter {
  status?: PostStatus;
  lastDays?: number;
  limit?: number;
  platforms?: Network[];
  startDate?: string;
  endDate?: string;
  autoRepostId?: string;
  type?: 'now' | 'schedule';
}

export function publishingMethods(call: Call) {
  return {
    /** Publishes now, schedules (`scheduleDate`) or holds (`requiresApproval`) a post (spec 2.1). */
    createPost: (request: PostRequest, call_?: CallOptions) => call(CreatePostResponse, 'POST', '/post', request, call_),
    /** Runs every check of createPost; nothing is stored or published. */
    validatePost: (request: PostRequest, call_?: CallOptions) => call(ValidatePostResponse, 'POST', '/validate/post', request, call_),
    getPost: (id: string, call_?: CallOptions) => call(PostRecordSchema, 'GET', `/post/${encodeURIComponent(id)}`, undefined, call_),
    /** The post's timeline: every attempt per network, oldest first (trigger, outcome, code, retry time, reconcile verdict). */
    getPostAttempts: (id: string, call_?: CallOptions) => call(PostAttemptsResponse, 'GET', `/post/${encodeURIComponent(id)}/attempts`, undefined, call_),
    /** Approves, pauses or unpauses (`scheduledPause`), reschedules or annotates a post not yet sent. */
    updatePost: (change: PostChange, call_?: CallOptions) => call(UpdatePostResponse, 'PATCH', '/post', change, call_),
    /** Deletes one post, several (`bulk`), or an auto-repost series; on the networks where they allow it. */
    deletePost: (target: { id: string } | { bulk: string[] } | { autoRepostId: string }, call_?: CallOptions) =>
      call(DeletePostResponse, 'DELETE', '/post', target, call_),
    /** Sends a post in `error` again to its failed platforms (once). */
    retryPost: (id: string, call_?: CallOptions) => call(RetryPostResponse, 'PUT', '/post/retry', { id }, call_),
    getHistory: (filter: HistoryFilter = {}, call_?: CallOptions) => {
      const query = new URLSearchParams();
      for (const [key, value] of Object.entries(filter)) {
        if (value !== undefined) query.set(key, Array.isArray(value) ? value.join(',') : String(value));
      }
      const suffix = query.size > 0 ? `?${query}` : '';
      return call(HistoryResponse, 'GET', `/history${suffix}`, undefined, call_);
    },
    /** Sets the linked youtube channel's watermark from the first image URL (spec 4.2). */
    setYoutubeWatermark: (request: YoutubeWatermarkRequest, call_?: CallOptions) => call(YoutubeWatermarkResponse, 'POST', '/post/youTubeWatermark', request, call_),
    removeYoutubeWatermark: (call_?: CallOptions) => call(YoutubeWatermarkRemovedResponse, 'DELETE', '/post/youTubeWatermark', undefined, call_),
    /** youtube's video categories of a region (two-letter code), with `assignable` (spec 4.3). */
    getYoutubeCategories: (region: string, call_?: CallOptions) => call(YoutubeCategoriesResponse, 'GET', `/post/youtubeCategories/${encodeURIComponent(region)}`, undefined, call_),
  };
}
