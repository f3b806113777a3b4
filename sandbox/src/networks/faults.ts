/**
 * @module
 * Fault markers: like a payment sandbox's test card numbers, a post text containing `[[fault:CODE]]` makes the
 * sandbox network answer that error instead of publishing. The table (documented in docs/sandbox-faults.md) lists,
 * per code, the HTTP status the network answers and which networks can produce it; a code a network cannot produce
 * is refused with 101 so a typo does not silently publish.
 */
import type { Network } from '@social-link-kit/protocol';

export interface FaultSpec {
  status: number;
  message: string;
  /** Networks that can return it; absent = every network. */
  networks?: readonly Network[];
  retryAfterSeconds?: number;
}

/** Codes the generic sandbox API (the 11 networks without a real adapter yet) can be asked to return. */
export const GENERIC_FAULTS: Record<string, FaultSpec> = {
  '429': { status: 429, message: 'Rate limit reached; try again later.', retryAfterSeconds: 30 },
  '500': { status: 500, message: 'The network had an internal error.' },
  '502': { status: 502, message: 'The network gateway failed.' },
  '503': { status: 503, message: 'The network is temporarily unavailable.' },
  '401': { status: 401, message: 'The access token was revoked; link the account again.' },
  '111': { status: 403, message: 'twitter rejected the post.', networks: ['twitter'] },
  '119': { status: 503, message: 'linkedin connection issue; safe to retry later.', networks: ['linkedin'] },
  '137': { status: 403, message: 'Duplicate content.' },
  '138': { status: 400, message: 'instagram could not publish this media.', networks: ['instagram'] },
  '140': { status: 400, message: 'Image aspect ratio outside the allowed range.', networks: ['instagram', 'threads', 'facebook', 'pinterest', 'tiktok'] },
  '164': { status: 400, message: 'The network could not read the media.' },
  '182': { status: 400, message: 'Video duration outside the network limits.' },
  '249': { status: 400, message: 'facebook community standards block.', networks: ['facebook'] },
  '258': { status: 400, message: 'instagram account state error (subcode 2207085).', networks: ['instagram'] },
  '272': { status: 401, message: 'twitter could not verify the own-credential identity.', networks: ['twitter'] },
  '326': { status: 403, message: 'Meta identity verification required.', networks: ['facebook', 'instagram', 'threads'] },
  '364': { status: 429, message: 'twitter rate limit.', networks: ['twitter'], retryAfterSeconds: 900 },
  '379': { status: 400, message: 'threads posting error.', networks: ['threads'] },
  '416': { status: 402, message: 'twitter API credits depleted.', networks: ['twitter'] },
  '417': { status: 403, message: 'twitter access token lacks write permission.', networks: ['twitter'] },
  '423': { status: 403, message: 'Legacy twitter OAuth is no longer supported.', networks: ['twitter'] },
  '435': { status: 429, message: 'instagram: 50 posts per rolling 24 hours reached.', networks: ['instagram'], retryAfterSeconds: 3600 },
  '436': { status: 400, message: 'instagram media processing timed out.', networks: ['instagram'] },
  '440': { status: 400, message: 'instagram could not ingest the media.', networks: ['instagram'] },
  '442': { status: 403, message: 'The account is banned from this reddit community.', networks: ['reddit'] },
  '443': { status: 400, message: 'The reddit title contains a disallowed word.', networks: ['reddit'] },
  '453': { status: 504, message: 'youtube upload timed out.', networks: ['youtube'] },
  '454': { status: 503, message: 'youtube upload service unavailable.', networks: ['youtube'] },
  '476': { status: 403, message: 'facebook account restriction.', networks: ['facebook'] },
  '514': { status: 400, message: 'instagram Reels audio not available with direct instagram login.', networks: ['instagram'] },
  '519': { status: 503, message: 'gmb authorization refresh temporarily unavailable.', networks: ['gmb'] },
  '522': { status: 400, message: 'threads media not ready after waiting.', networks: ['threads'] },
  '524': { status: 500, message: 'linkedin token refresh rejected by application configuration.', networks: ['linkedin'] },
};

const MARKER = /\[\[fault:([a-z0-9-]{1,32})\]\]/i;

/** The first fault marker in the text, lower-cased; null when there is none. */
export function faultMarker(text: string): string | null {
  return MARKER.exec(text)?.[1]?.toLowerCase() ?? null;
}
