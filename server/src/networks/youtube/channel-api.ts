/**
 * @module
 * The youtube channel calls beside publishing (spec 4.2 and 4.3), against the Data API at `ctx.baseUrl`
 * (www.googleapis.com, or the sandbox):
 * - `POST /upload/youtube/v3/watermarks/set?channelId=&uploadType=multipart`: a multipart/related body (the
 *   InvideoBranding resource as JSON, then the image bytes) → 204;
 * - `POST /youtube/v3/watermarks/unset?channelId=` → 204;
 * - `GET /youtube/v3/videoCategories?part=snippet&regionCode=` → `{items: [{id, snippet: {title, assignable}}]}`.
 * A refusal to brand the channel (403 forbidden, 404 channelNotFound, other 400s) is the spec's 250; an image type
 * Google does not take is 307; a bad region is 101; a revoked token asks for relinking.
 */
import { randomBytes } from 'node:crypto';
import type { NetworkContext } from '../analytics-contract.js';
import type { PublishFailure } from '../publish-adapter.js';
import { storedAccessToken } from '../kit.js';
import { classifyYoutubeError, googleAnswerOf, type GoogleAnswer } from './classify.js';

export type WatermarkTimingType = 'offsetFromStart' | 'offsetFromEnd';

export interface WatermarkTiming {
  type: WatermarkTimingType;
  offsetMs: number;
  durationMs: number;
}

export interface VideoCategory {
  id: string;
  title: string;
  assignable: boolean;
}

const base = (ctx: NetworkContext) => ctx.baseUrl.replace(/\/+$/, '');

async function bearer(ctx: NetworkContext): Promise<string> {
  return `Bearer ${(await storedAccessToken(ctx.account)) ?? ''}`;
}

const noAnswer: GoogleAnswer = { status: 0, reason: null, message: 'no answer', retryAfterSeconds: null };

/** A refused watermark call in the spec's terms: 307 for the image type, 250 for anything about the channel. */
export function classifyWatermarkError(answer: GoogleAnswer): PublishFailure {
  const general = classifyYoutubeError(answer);
  if (general.relink || general.retryAvailable) return general;
  if (answer.reason === 'mediaTypeNotSupported' || answer.reason === 'invalidImageFormat') {
    return { ...general, code: 307, message: `youtube does not take this image type for a watermark: ${answer.message}` };
  }
  return { ...general, code: 250, message: `The watermark cannot be set for this youtube channel: ${answer.message}` };
}

/** multipart/related as Google's upload endpoints read it: the resource first, then the media. */
function multipartRelated(resource: unknown, media: Uint8Array, mediaType: string): { body: Buffer; contentType: string } {
  const boundary = `slk${randomBytes(12).toString('hex')}`;
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Type: application/json; charset=UTF-8\r\n\r\n${JSON.stringify(resource)}\r\n--${boundary}\r\nContent-Type: ${mediaType}\r\n\r\n`),
    Buffer.from(media),
    Buffer.from(`\r\n--${boundary}--`),
  ]);
  return { body, contentType: `multipart/related; boundary=${boundary}` };
}

export async function setYoutubeWatermark(ctx: NetworkContext, image: { bytes: Uint8Array; contentType: string }, timing: WatermarkTiming): Promise<true | PublishFailure> {
  const channelId = encodeURIComponent(ctx.account.accountId);
  // The spec fixes the position: the bottom-right corner.
  const resource = { timing, position: { type: 'corner', cornerPosition: 'bottomRight' }, targetChannelId: ctx.account.accountId };
  const { body, contentType } = multipartRelated(resource, image.bytes, image.contentType);
  return watermarkCall(ctx, `${base(ctx)}/upload/youtube/v3/watermarks/set?channelId=${channelId}&uploadType=multipart`, {
    method: 'POST',
    headers: { Authorization: await bearer(ctx), 'Content-Type': contentType },
    body: new Uint8Array(body),
  });
}

export async function unsetYoutubeWatermark(ctx: NetworkContext): Promise<true | PublishFailure> {
  return watermarkCall(ctx, `${base(ctx)}/youtube/v3/watermarks/unset?channelId=${encodeURIComponent(ctx.account.accountId)}`, { method: 'POST', headers: { Authorization: await bearer(ctx) } });
}

/** One watermarks call: youtube answers 204 (or 200) with no body when it is done. */
async function watermarkCall(ctx: NetworkContext, url: string, init: RequestInit): Promise<true | PublishFailure> {
  let response: Response;
  try {
    response = await ctx.fetch(url, init);
  } catch {
    return classifyWatermarkError(noAnswer);
  }
  if (response.status === 204 || response.status === 200) {
    await response.body?.cancel();
    return true;
  }
  return classifyWatermarkError(await googleAnswerOf(response));
}

export async function listYoutubeCategories(ctx: NetworkContext, regionCode: string): Promise<VideoCategory[] | PublishFailure> {
  let response: Response;
  try {
    response = await ctx.fetch(`${base(ctx)}/youtube/v3/videoCategories?part=snippet&regionCode=${encodeURIComponent(regionCode)}`, { headers: { Authorization: await bearer(ctx) } });
  } catch {
    return classifyYoutubeError(noAnswer);
  }
  if (!response.ok) return classifyYoutubeError(await googleAnswerOf(response));
  const json = (await response.json().catch(() => null)) as { items?: { id?: unknown; snippet?: { title?: unknown; assignable?: unknown } }[] } | null;
  return (json?.items ?? []).map((item) => ({ id: String(item.id), title: String(item.snippet?.title ?? ''), assignable: item.snippet?.assignable === true }));
}
