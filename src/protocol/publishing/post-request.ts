/**
 * @module
 * The body of `POST /api/post` (and `POST /api/validate/post`), spec 2.1 and 2.2. Strict objects: an unknown key is
 * an error (101) naming it, so a misspelt option never silently does nothing. Media fields (`mediaUrls`, `isVideo`)
 * are accepted and passed on to the media step as given. Network option objects are checked for shape here and for
 * their rules (447, 448, 449, 518, 521, volumes) by the publishing rules.
 */
import { z } from 'zod';
import { NETWORKS } from '../constants.js';

/** Longest text accepted in any field before a network's own limit is applied (a 10,000-character text passes here). */
export const MAX_POST_TEXT = 100_000;
export const MAX_NOTES = 5_000;
export const MAX_IDEMPOTENCY_KEY = 256;
export const MAX_MEDIA_URLS = 100;

const postText = z.string().max(MAX_POST_TEXT);
const mediaUrlList = z.array(z.string().min(1).max(4096)).max(MAX_MEDIA_URLS);

/** `{default?, twitter?, …}`: per-platform values; platforms without a key use `default`. */
function perPlatform<T extends z.ZodType>(value: T) {
  const shape: Record<string, z.ZodOptional<T>> = { default: value.optional() };
  for (const network of NETWORKS) shape[network] = value.optional();
  return z.strictObject(shape);
}

export const AutoHashtag = z.union([
  z.boolean(),
  z.strictObject({
    max: z.number().int().min(1).max(10).optional(),
    position: z.enum(['auto', 'end']).optional(),
  }),
]);

export const AutoRepost = z.strictObject({
  repeat: z.number().int().min(1).max(10),
  days: z.number().int().min(2).max(365),
  startDate: z.string().max(64).optional(),
});
export type AutoRepost = z.infer<typeof AutoRepost>;

export const FirstComment = z.strictObject({
  comment: z.string().min(1).max(MAX_POST_TEXT),
  mediaUrls: mediaUrlList.optional(),
});
export type FirstComment = z.infer<typeof FirstComment>;

/** A network's option object: shape only (a JSON object); its fields are the rules' business. */
const networkOptions = z.record(z.string(), z.unknown());

/** The option objects of 2.1, by request key. */
export const NETWORK_OPTION_KEYS = [
  'blueskyOptions',
  'facebookOptions',
  'gmbOptions',
  'instagramOptions',
  'linkedInOptions',
  'pinterestOptions',
  'redditOptions',
  'snapchatOptions',
  'telegramOptions',
  'threadsOptions',
  'tikTokOptions',
  'twitterOptions',
  'youTubeOptions',
] as const;
export type NetworkOptionKey = (typeof NETWORK_OPTION_KEYS)[number];

const optionShape = Object.fromEntries(NETWORK_OPTION_KEYS.map((key) => [key, networkOptions.optional()])) as Record<
  NetworkOptionKey,
  z.ZodOptional<typeof networkOptions>
>;

export const PostRequest = z.strictObject({
  post: z.union([postText, perPlatform(postText)]),
  platforms: z.array(z.string()).min(1).max(NETWORKS.length),
  mediaUrls: z.union([mediaUrlList, perPlatform(mediaUrlList)]).optional(),
  isVideo: z.boolean().optional(),
  scheduleDate: z.string().max(64).optional(),
  requiresApproval: z.boolean().optional(),
  notes: z.string().max(MAX_NOTES).optional(),
  autoHashtag: AutoHashtag.optional(),
  autoRepost: AutoRepost.optional(),
  firstComment: FirstComment.optional(),
  idempotencyKey: z.string().min(1).max(MAX_IDEMPOTENCY_KEY).optional(),
  /** The `renditionHash` of a preview (`POST /api/validate/post`): refused (101) when what would be sent differs. */
  expectedRenditionHash: z.string().min(1).max(2_000).optional(),
  shortenLinks: z.boolean().optional(),
  /** Spec 2.1's stock-image field (named there only "the service"): `random`, a search term, or image ids. */
  stockImages: z.union([z.string().min(1).max(200), z.array(z.string().min(1).max(200)).min(1).max(10)]).optional(),
  /** The public API's name for it: Unsplash photos by `random`, a search term, or photo ids (publishing/media/unsplash.ts). */
  unsplash: z.union([z.string().min(1).max(200), z.array(z.string().min(1).max(200)).min(1).max(10)]).optional(),
  ...optionShape,
});
export type PostRequest = z.infer<typeof PostRequest>;
