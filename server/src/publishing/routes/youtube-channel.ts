/**
 * @module
 * The youtube channel endpoints (spec 4.2, 4.3), mounted under `/api` next to the posts API (API key, optional
 * Profile-Key):
 * - `POST /post/youTubeWatermark {mediaUrls, timingType, offsetMs, durationMs}`: the first URL's image becomes the
 *   channel's watermark (bottom-right corner); 140 for the aspect ratio, 307 for the media type, 250 when youtube
 *   will not brand the channel. `DELETE /post/youTubeWatermark` removes it.
 * - `GET /post/youtubeCategories/:region`: the region's video categories with `assignable`; 101 for a region that is
 *   not a two-letter country code; Premium, Launch, Business and Enterprise plans only (403, 104).
 */
import { Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ErrorCode, httpStatusOf } from '@social-link-kit/protocol';
import { YoutubeWatermarkRequest } from '@social-link-kit/protocol/publishing/index.js';
import type { AppDeps } from '../../app-deps.js';
import type { AppEnv } from '../../context.js';
import { ApiError, badRequest } from '../../core/errors.js';
import { readJsonObject } from '../../core/http/read-json.js';
import type { Account } from '../../core/db/storage-types.js';
import { networkContextFor, type NetworkContextDeps } from '../../analytics/network-context.js';
import { requestError } from '../request-errors.js';
import type { PublishFailure } from '../../networks/publish-adapter.js';
import type { NetworkContext } from '../../networks/analytics-contract.js';
import { listYoutubeCategories, setYoutubeWatermark, unsetYoutubeWatermark } from '../../networks/youtube/channel-api.js';
import { checkWatermarkImage } from '../media/youtube-watermark-image.js';
import { describe, NOT_FOUND } from '../../core/openapi/describe.js';
import { YoutubeCategoriesResponse, YoutubeWatermarkRemovedResponse, YoutubeWatermarkResponse } from '@social-link-kit/protocol/publishing/youtube-channel.js';

const ACTION = 'post';
const CATEGORY_PLANS: readonly Account['plan'][] = ['premium', 'launch', 'business', 'enterprise'];
const REGION_NAMES = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

/** A two-letter ISO 3166-1 country code the runtime knows (not the "unknown region" ZZ). */
export function isRegionCode(value: string): boolean {
  return /^[A-Z]{2}$/.test(value) && value !== 'ZZ' && REGION_NAMES.of(value) !== undefined;
}

/** The network's refusal in the envelope: relink → 401, waiting → 429 or 503, the rest (140, 250, 307, 101) → 400. */
function networkError(failure: PublishFailure): ApiError {
  const status = (failure.relink ? 401 : failure.code === 429 ? 429 : httpStatusOf(failure.code, failure.retryAvailable ? 503 : 400)) as ContentfulStatusCode;
  return new ApiError(status, failure.code, failure.message, {
    action: ACTION,
    retryAvailable: failure.retryAvailable,
    details: { platform: 'youtube', ...failure.details, ...(failure.relink && { relink: true }) },
  });
}

export function youtubeChannelRoutes(deps: Pick<AppDeps, 'config' | 'media'>, contextDeps: NetworkContextDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  // The Data API the publishing adapter speaks (the sandbox's youtube paths, or www.googleapis.com).

  async function channelContext(profileId: string): Promise<NetworkContext> {
    const ctx = await networkContextFor(contextDeps, profileId, 'youtube');
    if (!ctx) throw new ApiError(400, 163, 'No youtube account is linked to this profile.', { action: ACTION, details: { platform: 'youtube' } });
    return ctx;
  }

  routes.post('/post/youTubeWatermark', describe({ summary: "Set the youtube channel's watermark from an image URL", tag: 'Posts', auth: 'apiKeyAndProfileKey', origin: 'spec', request: YoutubeWatermarkRequest, response: YoutubeWatermarkResponse, name: 'YoutubeWatermarkResponse', errors: [163, 164, 250, 307] }), async (c) => {
    const parsed = YoutubeWatermarkRequest.safeParse(await readJsonObject(c, deps.config.maxBodyBytes, ACTION));
    if (!parsed.success) throw requestError(parsed.error, ACTION);
    const request = parsed.data;
    if (!deps.media) throw new ApiError(503, 499, 'Media checks are not available on this service.', { action: ACTION, retryAvailable: true });
    const ctx = await channelContext(c.get('profile').id);
    const image = await checkWatermarkImage(request.mediaUrls[0]!, deps.media);
    if (!image.ok) {
      const { code, message, details, retryAvailable } = image.failure;
      throw new ApiError(code === 499 ? 503 : 400, code, message, { action: ACTION, details: { platform: 'youtube', ...details }, ...(retryAvailable !== undefined && { retryAvailable }) });
    }
    const result = await setYoutubeWatermark(ctx, image, { type: request.timingType, offsetMs: request.offsetMs, durationMs: request.durationMs });
    if (result !== true) throw networkError(result);
    return c.json({ status: 'success', message: 'The watermark is set on the youtube channel.', ...request });
  });

  routes.delete('/post/youTubeWatermark', describe({ summary: "Remove the youtube channel's watermark", tag: 'Posts', auth: 'apiKeyAndProfileKey', response: YoutubeWatermarkRemovedResponse, name: 'YoutubeWatermarkRemovedResponse', errors: [163, 250] }), async (c) => {
    const result = await unsetYoutubeWatermark(await channelContext(c.get('profile').id));
    if (result !== true) throw networkError(result);
    return c.json({ status: 'success', message: 'The watermark is removed from the youtube channel.' });
  });

  routes.get('/post/youtubeCategories/:region', describe({ summary: "youtube's video categories of a region, with assignable", tag: 'Posts', auth: 'apiKeyAndProfileKey', origin: 'spec', response: YoutubeCategoriesResponse, name: 'YoutubeCategoriesResponse', errors: [163, NOT_FOUND] }), async (c) => {
    if (!CATEGORY_PLANS.includes(c.get('account').plan)) {
      throw new ApiError(403, ErrorCode.planRequired, 'youtube categories need the Premium, Launch, Business or Enterprise plan.', { action: ACTION });
    }
    const given = c.req.param('region');
    const region = given.toUpperCase();
    if (!isRegionCode(region)) throw badRequest('"region" must be a two-letter country code (ISO 3166-1 alpha-2), e.g. US.', { field: 'region', region: given.slice(0, 16) }, 'request');
    const categories = await listYoutubeCategories(await channelContext(c.get('profile').id), region);
    if (!Array.isArray(categories)) throw networkError(categories);
    return c.json({ status: 'success', region, categories });
  });

  return routes;
}
