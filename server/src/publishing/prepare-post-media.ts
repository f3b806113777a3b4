/**
 * @module
 * The engine's media step, before the adapter's prepare (spec 4.9 rules 2, 7; 2.1 `contentIssues`): each media URL
 * of the platform is fetched again (a scheduled post needs its media at publication), converted where the network
 * needs it and stored at a signed address, so adapters receive ready URLs. When the origin fails now but the post
 * kept a copy, the copy is used and the platform reports `contentIssues`. The result is kept with the attempt's
 * prepared state under PREPARED_MEDIA_KEY, so a resumed attempt (after a crash) sends the same URLs.
 */
import type { Network } from '@social-link-kit/protocol';
import type { PublishFailure } from '../networks/publish-adapter.js';
import type { MediaDeps } from './media/inspect-media.js';
import { isMediaFailure } from './media/media-failure.js';
import { prepareProtectedMedia, type ContentIssues, type MediaCopy } from './media/media-protection.js';
import { asPublishFailure } from './post-media.js';

/** The key of the engine's media result inside a platform row's prepared state (adapters keep their own keys). */
export const PREPARED_MEDIA_KEY = 'serviceMedia';

export interface PreparedPostMedia {
  urls: string[];
  /** Every URL is a stored copy of the service (see media/crawler-blocked.ts: 479). */
  rehosted?: boolean;
  contentIssues?: ContentIssues;
}

export function preparedMediaOf(prepared: Record<string, unknown> | null): PreparedPostMedia | null {
  const media = prepared?.[PREPARED_MEDIA_KEY] as PreparedPostMedia | undefined;
  return media && Array.isArray(media.urls) ? media : null;
}

export async function preparePostMedia(
  urls: readonly string[],
  platform: Network,
  media: MediaDeps,
  copies: Record<string, MediaCopy> | null,
  options: { longVideo?: boolean; rehost?: boolean },
): Promise<PreparedPostMedia | PublishFailure> {
  const ready: string[] = [];
  const details: string[] = [];
  let rehosted = urls.length > 0;
  for (const url of urls) {
    const prepared = await prepareProtectedMedia(url, platform, media, copies?.[url] ?? null, options);
    if (isMediaFailure(prepared)) return asPublishFailure(prepared);
    ready.push(prepared.url);
    rehosted &&= prepared.stored;
    if (prepared.contentIssues) details.push(...prepared.contentIssues.details);
  }
  return { urls: ready, ...(rehosted && { rehosted }), ...(details.length > 0 && { contentIssues: { originMediaHostFailed: true, details } }) };
}
