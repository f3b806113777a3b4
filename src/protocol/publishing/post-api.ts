/**
 * @module
 * Response schemas of the posts API, for the typed client (which checks every answer). Loose objects: the service
 * may add fields without breaking older clients.
 */
import { z } from 'zod';
import { Network } from '../networks.js';
import { PostStatus } from './post-state.js';

const Warning = z.looseObject({ feature: z.string(), code: z.number() });

export const PostIdEntrySchema = z.looseObject({
  status: z.enum(['success', 'pending']),
  platform: Network,
  id: z.string(),
  postUrl: z.string(),
  warnings: z.array(Warning).optional(),
  contentIssues: z.looseObject({ originMediaHostFailed: z.boolean(), details: z.array(z.string()) }).optional(),
  firstComment: z
    .union([
      z.looseObject({ status: z.literal('pending') }),
      z.looseObject({ status: z.literal('success'), id: z.string() }),
      z.looseObject({ status: z.literal('error'), code: z.number(), message: z.string() }),
    ])
    .optional(),
});

export const PostPlatformErrorSchema = z.looseObject({
  action: z.literal('post'),
  status: z.literal('error'),
  platform: Network,
  code: z.number(),
  message: z.string(),
  retryAvailable: z.boolean().optional(),
  relink: z.boolean().optional(),
});

/** An Unsplash photo the post uses and its credit (the `unsplash` field; post-response.ts). */
export const UnsplashAttributionSchema = z.looseObject({
  id: z.string(),
  photographer: z.string(),
  photographerUrl: z.string(),
  photoUrl: z.string(),
  text: z.string(),
});

export const CreatePostResponse = z.looseObject({
  status: z.enum(['success', 'error', 'scheduled', 'awaiting approval', 'paused', 'processing', 'pending']),
  errors: z.array(PostPlatformErrorSchema),
  postIds: z.array(PostIdEntrySchema),
  id: z.string(),
  refId: z.string(),
  scheduleDate: z.string().optional(),
  post: z.string(),
  autoRepostId: z.string().optional(),
  autoRepost: z.array(z.looseObject({ id: z.string(), autoRepostId: z.string(), scheduleDate: z.string() })).optional(),
  unsplash: z.array(UnsplashAttributionSchema).optional(),
});

export const PostRecordSchema = z.looseObject({
  id: z.string(),
  status: PostStatus,
  refId: z.string(),
  post: z.string(),
  platforms: z.array(Network),
  postIds: z.array(PostIdEntrySchema),
  errors: z.array(PostPlatformErrorSchema),
  scheduleDate: z.string().optional(),
  created: z.string(),
  requiresApproval: z.boolean(),
  approved: z.boolean(),
  scheduledPause: z.boolean(),
  notes: z.string().optional(),
  autoRepostId: z.string().optional(),
  unsplash: z.array(UnsplashAttributionSchema).optional(),
  type: z.enum(['now', 'schedule']),
  retried: z.boolean(),
  /** With status `error` (spec 7): the whole envelope, the first failing network's code and message. */
  action: z.literal('post').optional(),
  code: z.number().optional(),
  message: z.string().optional(),
});

/** `PATCH /api/post`: only before the post is sent; `youTubeOptions` is merged into the post's (category checked). */
export const UpdatePostRequest = z.strictObject({
  id: z.string().min(1).max(100),
  approved: z.boolean().optional(),
  scheduleDate: z.string().max(64).optional(),
  scheduledPause: z.boolean().optional(),
  notes: z.string().max(5_000).optional(),
  youTubeOptions: z.record(z.string(), z.unknown()).optional(),
  /** With `approved: true` or `scheduledPause: false`: the preview's `renditionHash`; refused (101) when it differs. */
  expectedRenditionHash: z.string().min(1).max(2_000).optional(),
});

export const UpdatePostResponse = PostRecordSchema.omit({ status: true }).extend({ status: z.literal('success'), postStatus: PostStatus });

export const DeletePostResponse = z.looseObject({
  status: z.enum(['success', 'error']),
  /** With status `error` (some posts not deleted): `delete`, 101 and a message (spec 7). */
  action: z.literal('delete').optional(),
  code: z.number().optional(),
  message: z.string().optional(),
  posts: z.array(
    z.looseObject({ id: z.string(), status: z.enum(['deleted', 'error']), deletedOn: z.array(Network), notDeletedOn: z.array(Network), message: z.string().optional() }),
  ),
});

export const RetryPostResponse = z.looseObject({ status: z.literal('success'), postStatus: z.literal('processing'), id: z.string(), platforms: z.array(Network) });

export const HistoryResponse = z.looseObject({ status: z.literal('success'), refId: z.string(), count: z.number(), history: z.array(PostRecordSchema) });

/** One medium as the network receives it, after conversion. */
export const MediaRendition = z.object({
  url: z.string(),
  kind: z.enum(['image', 'video']),
  /** The content type sent: `image/jpeg` when the service converts the image. */
  type: z.string(),
  converted: z.boolean(),
  /** Bytes of the origin file (a converted image's JPEG size is known only once it is converted). */
  size: z.number().nullable(),
  width: z.number().optional(),
  height: z.number().optional(),
  /** A video's duration, seconds. */
  duration: z.number().optional(),
});

/** What the service would send to one network. */
export const PlatformRendition = z.object({
  /** The text after auto hashtags, rich-text styling, line breaks (U+2063) and link shortening (a short link's code,
   * `…`, is drawn when the post is created). */
  text: z.string(),
  /** The posts it goes out as: one, or a thread. */
  parts: z.array(z.string()),
  media: z.array(MediaRendition),
});

export const ValidatePostResponse = z.looseObject({
  status: z.literal('success'),
  validated: z.literal(true),
  /** Per network that passed the checks. */
  renditions: z.record(z.string(), PlatformRendition).optional(),
  /** Send it back as `expectedRenditionHash` on create, approve or unpause to publish exactly this. */
  renditionHash: z.string().optional(),
});
