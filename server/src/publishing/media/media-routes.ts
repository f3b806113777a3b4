/**
 * @module
 * Media checks an integrator can call before posting (API key auth, mounted under /api/media):
 * - `POST /api/media/urlExists {mediaUrl}`: the HEAD check only (reachable, Content-Type, size), as a post does it.
 * - `POST /api/media/verifyUrl {mediaUrl, platforms?, isVideo?, longVideo?}`: the full check (the real type from the
 *   bytes, pixel size or video duration) and what each network would do with it: take it, convert it to JPEG,
 *   or refuse it with the code a post would get.
 * Failures are the spec's envelope with the media code (164, 450, 451, 499…).
 */
import { Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ErrorCode, httpStatusOf, isNetwork, NETWORKS, type Network } from '@social-link-kit/protocol';
import type { AppEnv } from '../../context.js';
import { ApiError } from '../../core/errors.js';
import { readJsonObject } from '../../core/http/read-json.js';
import { checkMediaUrl } from './check-media-url.js';
import { inspectMedia, type MediaDeps } from './inspect-media.js';
import { isMediaFailure, type MediaFailure } from './media-failure.js';
import { planMedia } from './media-plan.js';
import { describe, jsonAnswer } from '../../core/openapi/describe.js';
import { z } from 'zod';

const ACTION = 'media';

export function mediaRoutes(deps: { media: MediaDeps; config: { maxBodyBytes: number } }): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.post('/urlExists', describe({ summary: 'Does a media URL answer (HEAD)?', tag: 'Media', auth: 'apiKeyAndProfileKey', origin: 'named', ours: 'path', request: z.object({ mediaUrl: z.url() }), response: jsonAnswer('`{status, mediaUrl, directUrl, exists, statusCode, contentType, contentLength}`'), errors: [164, 182, 307, 450, 451, 499] }), async (c) => {
    const body = await readJsonObject(c, deps.config.maxBodyBytes, ACTION);
    const check = await checkMediaUrl(requireMediaUrl(body), deps.media);
    if (!check.ok) throw toApiError(check);
    return c.json({
      status: 'success',
      mediaUrl: body.mediaUrl,
      directUrl: check.url,
      exists: true,
      statusCode: check.status,
      contentType: check.contentType,
      contentLength: check.contentLength,
    });
  });

  app.post('/verifyUrl', describe({ summary: 'Check a media URL as a post would (type, size)', tag: 'Media', auth: 'apiKeyAndProfileKey', origin: 'named', ours: 'path', request: z.object({ mediaUrl: z.url(), platforms: z.array(z.enum(NETWORKS)).min(1), longVideo: z.boolean().optional() }), response: jsonAnswer('The media check result, per platform.'), errors: [163, 164, 182, 307, 450, 451, 499] }), async (c) => {
    const body = await readJsonObject(c, deps.config.maxBodyBytes, ACTION);
    const mediaUrl = requireMediaUrl(body);
    const platforms = readPlatforms(body.platforms);
    const media = await inspectMedia(mediaUrl, deps.media);
    if (isMediaFailure(media)) throw toApiError(media);
    const perPlatform: Record<string, unknown> = {};
    for (const platform of platforms) {
      const plan = planMedia(media, platform, { longVideo: body.longVideo === true });
      perPlatform[platform] =
        plan.action === 'refuse'
          ? { action: 'refused', code: plan.failure.code, message: plan.failure.message }
          : plan.action === 'convert-to-jpeg'
            ? { action: 'convert-to-jpeg', reason: plan.reason }
            : { action: 'as-is' };
    }
    const shape = media.kind === 'image' ? { width: media.info.width, height: media.info.height, bytes: media.bytes.byteLength } : { seconds: media.seconds, bytes: media.size };
    return c.json({
      status: 'success',
      mediaUrl,
      directUrl: media.check.url,
      kind: media.kind,
      contentType: media.type,
      declaredContentType: media.check.contentType,
      ...shape,
      platforms: perPlatform,
    });
  });

  return app;
}

function requireMediaUrl(body: Record<string, unknown>): unknown {
  if (body.mediaUrl === undefined) throw new ApiError(400, ErrorCode.badRequest, '`mediaUrl` is required.', { action: ACTION });
  return body.mediaUrl;
}

function readPlatforms(value: unknown): Network[] {
  if (value === undefined) return [...NETWORKS];
  if (!Array.isArray(value) || value.length === 0 || !value.every((p): p is Network => typeof p === 'string' && isNetwork(p))) {
    throw new ApiError(400, ErrorCode.platformInvalid, '`platforms` must be a non-empty array of network names.', { action: ACTION, details: { platforms: value } });
  }
  return value;
}

function toApiError(failure: MediaFailure): ApiError {
  return new ApiError(httpStatusOf(failure.code) as ContentfulStatusCode, failure.code, failure.message, {
    action: ACTION,
    details: failure.details,
    retryAvailable: failure.retryAvailable,
  });
}
