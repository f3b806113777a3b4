/**
 * @module
 * Spec 7, code 479: "network crawler blocked or source unreachable even after re-hosting". A network that pulls
 * media (instagram, threads, facebook, pinterest, tiktok) may fail to download a URL the service gave it, e.g. when
 * the origin host blocks its crawler (robots.txt, 403); its adapter marks that answer `mediaFetchBlocked`. The
 * engine then re-hosts the post's images once (stored copies at signed addresses) and asks again. If the network
 * still cannot fetch them, the failure becomes 479, not retryable: retrying the same media will not help.
 * Videos are not re-hosted, so a blocked video keeps the network's own code.
 */
import type { PublishFailure } from '../../networks/publish-adapter.js';

export interface HostedMedia {
  urls: string[];
  /** Every URL is the service's stored copy (converted or re-hosted), none the origin's. */
  rehosted?: boolean;
}

/** The network could not fetch media it got from the origin: worth re-hosting and asking once more. */
export function shouldRehost(failure: PublishFailure, media: HostedMedia | null): boolean {
  return failure.mediaFetchBlocked === true && media !== null && media.urls.length > 0 && media.rehosted !== true;
}

/** 479 when the network could not fetch media that the service already hosts itself; otherwise the failure as is. */
export function crawlerBlockedAfterRehost(failure: PublishFailure, media: HostedMedia | null): PublishFailure {
  if (failure.mediaFetchBlocked !== true || media?.rehosted !== true) return failure;
  return {
    kind: 'failed',
    code: 479,
    message: "The network's crawler could not fetch the media, even from the service's re-hosted copy.",
    retryAvailable: false,
    relink: false,
    details: { ...failure.details, networkCode: failure.code, networkMessage: failure.message },
  };
}
