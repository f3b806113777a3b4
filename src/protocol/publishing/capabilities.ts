/**
 * @module
 * What each network accepts when publishing: text limit and how it is counted, media counts and types, first
 * comments, threads, duplicate checking, line breaks, rich text, deletion. Zod-free and browser-safe, so the demo
 * composer can count characters the same way the service does.
 *
 * Sources: spec 2.1 and 4.9 (empty text, rich text, WebP conversion, duplicate scope, first-comment media) and the
 * networks' own API limits (publishing-anchors section 4). Where the spec and a network disagree, the spec wins
 * (tiktok takes WebP through its API, but the spec converts it, so tiktok lists JPEG only).
 */
import type { Network } from '../constants.js';

/** How a text length is counted. `chars` = Unicode code points; `weighted` = twitter's rule (URL 23, CJK/emoji 2). */
export type TextUnit = 'chars' | 'graphemes' | 'weighted' | 'bytes';

export interface PublishingCapabilities {
  text: { max: number; unit: TextUnit };
  /** Media-only posts with an empty `post` (spec 2.1: facebook, instagram, linkedin, threads, tiktok, twitter). */
  emptyTextAllowed: boolean;
  /** Long text may be split into a reply chain (more than 30 parts gives 275). */
  threads: boolean;
  media: {
    maxItems: number;
    images: boolean;
    videos: boolean;
    /** Image content types the network takes as they are; HEIC, HEIF and AVIF are always converted (4.9 rule 2). */
    imageTypes: string[];
    /** WebP must become JPEG before posting (4.9 rule 2). */
    convertWebp: boolean;
    videoSeconds: { min: number; max: number };
    /** The largest video the network takes, in bytes; absent = no size limit of its own. */
    videoMaxBytes?: number;
    /** The largest image the network takes, in bytes (bluesky's blob limit); absent = none below the fetch limit. */
    imageMaxBytes?: number;
    /** A video post carries one video and no other media. */
    videoAlone?: boolean;
  };
  /** `media`: the first comment may carry `mediaUrls` (spec 2.1: facebook, linkedin, twitter only). */
  firstComment: { supported: boolean; media: boolean };
  /** 4.9 rule 4: `account` = exact duplicates also across all profiles of the account (twitter). */
  duplicateCheck: 'profile' | 'account' | 'none';
  /** Line breaks are kept (written as U+2063 + LF); otherwise they become spaces. */
  lineBreaks: boolean;
  /** How the b/strong/em/i/samp/var/sub/sup subset is rendered (4.9 rule 8); `none` = plain text. */
  richText: 'unicode' | 'markdown' | 'none';
  /** The post can be deleted on the network through its API. */
  canDelete: boolean;
}

const JPEG = 'image/jpeg';
const PNG = 'image/png';
const GIF = 'image/gif';
const WEBP = 'image/webp';
const MB = 1024 * 1024;

/** A day in seconds: networks that bound video by size, not duration. */
const NO_DURATION_LIMIT = 86_400;

export const PUBLISHING_CAPABILITIES: Record<Network, PublishingCapabilities> = {
  bluesky: {
    text: { max: 300, unit: 'graphemes' },
    emptyTextAllowed: false,
    threads: true,
    media: { maxItems: 4, images: true, videos: true, imageTypes: [JPEG, PNG, WEBP], convertWebp: false, videoSeconds: { min: 0, max: 180 }, videoMaxBytes: 100 * MB, imageMaxBytes: 1_000_000, videoAlone: true },
    firstComment: { supported: true, media: false },
    duplicateCheck: 'profile',
    lineBreaks: true,
    richText: 'unicode',
    canDelete: true,
  },
  facebook: {
    text: { max: 63_206, unit: 'chars' },
    emptyTextAllowed: true,
    threads: false,
    media: { maxItems: 10, images: true, videos: true, imageTypes: [JPEG, PNG, GIF, WEBP], convertWebp: false, videoSeconds: { min: 1, max: 14_400 }, videoMaxBytes: 10 * 1024 * MB },
    firstComment: { supported: true, media: true },
    duplicateCheck: 'profile',
    lineBreaks: true,
    richText: 'unicode',
    canDelete: true,
  },
  gmb: {
    text: { max: 1_500, unit: 'chars' },
    emptyTextAllowed: false,
    threads: false,
    media: { maxItems: 1, images: true, videos: false, imageTypes: [JPEG, PNG], convertWebp: true, videoSeconds: { min: 0, max: 0 } },
    firstComment: { supported: false, media: false },
    duplicateCheck: 'profile',
    lineBreaks: true,
    richText: 'none',
    canDelete: true,
  },
  instagram: {
    text: { max: 2_200, unit: 'chars' },
    emptyTextAllowed: true,
    threads: false,
    media: { maxItems: 10, images: true, videos: true, imageTypes: [JPEG], convertWebp: true, videoSeconds: { min: 3, max: 900 }, videoMaxBytes: 300 * MB },
    firstComment: { supported: true, media: false },
    duplicateCheck: 'profile',
    lineBreaks: true,
    richText: 'unicode',
    // Published instagram posts cannot be deleted through the API.
    canDelete: false,
  },
  linkedin: {
    text: { max: 3_000, unit: 'chars' },
    emptyTextAllowed: true,
    threads: false,
    media: { maxItems: 20, images: true, videos: true, imageTypes: [JPEG, PNG, GIF], convertWebp: true, videoSeconds: { min: 3, max: 1_800 }, videoMaxBytes: 5 * 1024 * MB },
    firstComment: { supported: true, media: true },
    duplicateCheck: 'profile',
    lineBreaks: true,
    richText: 'unicode',
    canDelete: true,
  },
  pinterest: {
    text: { max: 500, unit: 'chars' },
    emptyTextAllowed: false,
    threads: false,
    media: { maxItems: 5, images: true, videos: true, imageTypes: [JPEG, PNG, WEBP], convertWebp: false, videoSeconds: { min: 4, max: 900 }, videoMaxBytes: 2 * 1024 * MB },
    firstComment: { supported: false, media: false },
    duplicateCheck: 'none',
    lineBreaks: false,
    richText: 'none',
    canDelete: true,
  },
  reddit: {
    text: { max: 10_000, unit: 'chars' },
    emptyTextAllowed: false,
    threads: false,
    media: { maxItems: 20, images: true, videos: true, imageTypes: [JPEG, PNG, GIF], convertWebp: false, videoSeconds: { min: 0, max: 900 }, videoMaxBytes: 1024 * MB },
    firstComment: { supported: true, media: false },
    duplicateCheck: 'none',
    lineBreaks: true,
    richText: 'markdown',
    canDelete: true,
  },
  snapchat: {
    text: { max: 160, unit: 'chars' },
    emptyTextAllowed: false,
    threads: false,
    media: { maxItems: 1, images: true, videos: true, imageTypes: [JPEG, PNG], convertWebp: true, videoSeconds: { min: 5, max: 60 }, videoMaxBytes: 32 * MB },
    firstComment: { supported: false, media: false },
    duplicateCheck: 'profile',
    lineBreaks: false,
    richText: 'none',
    canDelete: false,
  },
  telegram: {
    // 4,096 for a message; a media caption is limited to 1,024 by the Bot API (the adapter checks that case).
    text: { max: 4_096, unit: 'chars' },
    emptyTextAllowed: false,
    threads: false,
    media: { maxItems: 10, images: true, videos: true, imageTypes: [JPEG, PNG, GIF, WEBP], convertWebp: false, videoSeconds: { min: 0, max: NO_DURATION_LIMIT }, videoMaxBytes: 50 * MB },
    firstComment: { supported: false, media: false },
    duplicateCheck: 'none',
    lineBreaks: true,
    richText: 'unicode',
    canDelete: true,
  },
  threads: {
    text: { max: 500, unit: 'chars' },
    emptyTextAllowed: true,
    threads: true,
    media: { maxItems: 20, images: true, videos: true, imageTypes: [JPEG, PNG], convertWebp: true, videoSeconds: { min: 0, max: 300 }, videoMaxBytes: 1024 * MB },
    firstComment: { supported: true, media: false },
    duplicateCheck: 'profile',
    lineBreaks: true,
    richText: 'unicode',
    // The threads API has no delete.
    canDelete: false,
  },
  tiktok: {
    text: { max: 2_200, unit: 'chars' },
    emptyTextAllowed: true,
    threads: false,
    media: { maxItems: 35, images: true, videos: true, imageTypes: [JPEG], convertWebp: true, videoSeconds: { min: 3, max: 600 }, videoMaxBytes: 4 * 1024 * MB },
    firstComment: { supported: true, media: false },
    duplicateCheck: 'profile',
    lineBreaks: true,
    richText: 'none',
    canDelete: false,
  },
  twitter: {
    text: { max: 280, unit: 'weighted' },
    emptyTextAllowed: true,
    threads: true,
    media: { maxItems: 4, images: true, videos: true, imageTypes: [JPEG, PNG, GIF, WEBP], convertWebp: false, videoSeconds: { min: 0.5, max: 140 }, videoMaxBytes: 512 * MB },
    firstComment: { supported: true, media: true },
    duplicateCheck: 'account',
    lineBreaks: true,
    richText: 'unicode',
    canDelete: true,
  },
  youtube: {
    // The description limit, counted in UTF-8 bytes by the network.
    text: { max: 5_000, unit: 'bytes' },
    emptyTextAllowed: false,
    threads: false,
    media: { maxItems: 1, images: false, videos: true, imageTypes: [], convertWebp: false, videoSeconds: { min: 1, max: 43_200 } },
    firstComment: { supported: true, media: false },
    duplicateCheck: 'profile',
    lineBreaks: true,
    richText: 'none',
    canDelete: true,
  },
};

/** twitter's `longVideo: true` raises the video maximum to 4 hours for approved accounts (spec 7, code 182). */
export const TWITTER_LONG_VIDEO_SECONDS = 4 * 3_600;
/** More thread parts than this gives 275 (spec 8). */
export const MAX_THREAD_PARTS = 30;
