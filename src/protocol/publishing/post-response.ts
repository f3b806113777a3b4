/**
 * @module
 * What `POST /api/post` answers (spec 2.1): `status`, `errors[]` (one per failing network), `postIds[]` (one per
 * network that published or is pending), `id`, `refId`, `scheduleDate`, `post`, `autoRepostId`. The top level is
 * `error` when any network failed, even with `postIds` non-empty. `GET /api/post/:id` answers a `PostRecord`.
 */
import type { Network } from '../networks.js';
import type { PostStatus } from './post-state.js';

export interface PostWarning {
  feature: string;
  code: number;
}

export interface PostIdEntry {
  status: 'success' | 'pending';
  platform: Network;
  /** The network's post id; `pending` while tiktok processes. */
  id: string;
  postUrl: string;
  warnings?: PostWarning[];
  contentIssues?: { originMediaHostFailed: boolean; details: string[] };
  /** The first comment on this platform: `pending` until it is posted (about 20 s later), then its id or its error. */
  firstComment?: FirstCommentResult;
}

export type FirstCommentResult = { status: 'pending' } | { status: 'success'; id: string } | { status: 'error'; code: number; message: string };

export interface PostPlatformError {
  action: 'post';
  status: 'error';
  platform: Network;
  code: number;
  message: string;
  details?: unknown;
  retryAvailable?: boolean;
  relink?: boolean;
  /** The step that failed, e.g. `handlePostAdditions` for link shortening (441). */
  source?: string;
}

/** An Unsplash photo a post uses, with the credit Unsplash's guidelines ask for (kept with the post). */
export interface UnsplashAttribution {
  id: string;
  photographer: string;
  /** The photographer's Unsplash profile, with the referral parameters the guidelines ask for. */
  photographerUrl: string;
  /** The photo's page on Unsplash. */
  photoUrl: string;
  /** "Photo by <name> on Unsplash", ready to show. */
  text: string;
}

export interface PostResponse {
  status: 'success' | 'error' | 'scheduled' | 'awaiting approval' | 'paused' | 'processing' | 'pending';
  errors: PostPlatformError[];
  postIds: PostIdEntry[];
  /** The service's post id. */
  id: string;
  refId: string;
  scheduleDate?: string;
  /** The post text as sent (string form, or the `default` of the object form). */
  post: string;
  autoRepostId?: string;
  /** Future posts of an auto-repost series (2.2). */
  autoRepost?: { id: string; autoRepostId: string; scheduleDate: string }[];
  /** The Unsplash photos the `unsplash` field chose, with their attribution. */
  unsplash?: UnsplashAttribution[];
  /** Set with `status: 'error'`: the first platform error's code, so clients that read only the top level see it. */
  code?: number;
  message?: string;
  /** `post` on every answer whose status is `error` (partly published or not), so it is the spec's envelope. */
  action?: 'post';
}

/** A post as `GET /api/post/:id` and `GET /api/history` show it. */
export interface PostRecord {
  id: string;
  status: PostStatus;
  refId: string;
  post: string;
  platforms: Network[];
  postIds: PostIdEntry[];
  errors: PostPlatformError[];
  scheduleDate?: string;
  created: string;
  requiresApproval: boolean;
  approved: boolean;
  scheduledPause: boolean;
  notes?: string;
  autoRepostId?: string;
  /** The Unsplash photos the `unsplash` field chose, with their attribution. */
  unsplash?: UnsplashAttribution[];
  /** `now` for posts published at once, `schedule` for scheduled ones. */
  type: 'now' | 'schedule';
  retried: boolean;
  /** With `status: 'error'` (spec 7, the whole envelope): `post` and the first failing network's code and message. */
  action?: 'post';
  code?: number;
  message?: string;
}
