/**
 * @module
 * Spec 4.3: a video post whose `youTubeOptions.categoryId` is not an assignable category of the region fails. The
 * check runs on create and on update (not first at publication): the region's list is read from youtube itself
 * (the Data API's videoCategories, the same call as `GET /post/youtubeCategories/:region`) for
 * `youTubeOptions.regionCode`, or US when it is not given.
 */
import type { PublishFailure } from '../../networks/publish-adapter.js';
import type { VideoCategory } from '../../networks/youtube/channel-api.js';

/** The region's categories as youtube lists them for the profile's channel; null when no youtube account is linked. */
export type CategoryLookup = (profileId: string, region: string) => Promise<VideoCategory[] | PublishFailure | null>;

export const DEFAULT_CATEGORY_REGION = 'US';

const refusal = (message: string, details: Record<string, unknown>): PublishFailure => ({ kind: 'failed', code: 101, message, retryAvailable: false, relink: false, details });

/** The failure of the category choice in `options` (a post's `youTubeOptions`), or null when it may be used. */
export async function youtubeCategoryRefusal(lookup: CategoryLookup | undefined, profileId: string, options: Record<string, unknown> | undefined): Promise<PublishFailure | null> {
  if (!lookup || options?.categoryId === undefined) return null;
  const categoryId = String(options.categoryId);
  const region = typeof options.regionCode === 'string' ? options.regionCode.toUpperCase() : DEFAULT_CATEGORY_REGION;
  if (!/^[A-Z]{2}$/.test(region)) return refusal('youTubeOptions.regionCode must be a two-letter country code.', { field: 'youTubeOptions.regionCode' });
  const categories = await lookup(profileId, region);
  if (categories === null) return null; // no youtube account: the missing link is reported on its own (163)
  if (!Array.isArray(categories)) return categories;
  const category = categories.find((entry) => entry.id === categoryId);
  if (!category) return refusal(`youtube has no video category ${categoryId.slice(0, 16)} in ${region}.`, { field: 'youTubeOptions.categoryId', region });
  if (!category.assignable) {
    return refusal(`youtube category ${category.id} (${category.title}) cannot be assigned to a video in ${region}; pick one with assignable: true.`, { field: 'youTubeOptions.categoryId', region });
  }
  return null;
}
