/**
 * @module
 * The youtube channel endpoints beside posts (spec 4.2 and 4.3): the channel watermark and the video categories of
 * a region. Requests strict (an unknown field is a 101), responses loose like the other answer schemas.
 */
import { z } from 'zod';

export const WATERMARK_TIMING_TYPES = ['offsetFromStart', 'offsetFromEnd'] as const;

/** Milliseconds: positive whole numbers (youtube's own fields are unsigned integers). */
const Milliseconds = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

export const YoutubeWatermarkRequest = z.strictObject({
  /** Only the first URL is used (spec 4.2). */
  mediaUrls: z.array(z.string().min(1).max(2048)).min(1).max(10),
  timingType: z.enum(WATERMARK_TIMING_TYPES),
  offsetMs: Milliseconds,
  durationMs: Milliseconds,
});
export type YoutubeWatermarkRequest = z.infer<typeof YoutubeWatermarkRequest>;

export const YoutubeWatermarkResponse = z.looseObject({
  status: z.literal('success'),
  message: z.string(),
  mediaUrls: z.array(z.string()),
  timingType: z.enum(WATERMARK_TIMING_TYPES),
  offsetMs: z.number(),
  durationMs: z.number(),
});

export const YoutubeWatermarkRemovedResponse = z.looseObject({ status: z.literal('success'), message: z.string() });

export const YoutubeCategory = z.looseObject({ id: z.string(), title: z.string(), assignable: z.boolean() });

export const YoutubeCategoriesResponse = z.looseObject({
  status: z.literal('success'),
  region: z.string(),
  categories: z.array(YoutubeCategory),
});
