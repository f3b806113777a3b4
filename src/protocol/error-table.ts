/**
 * @module
 * The one table of error codes (spec section 7, plus the codes whose meaning the spec leaves to us): each code's
 * HTTP status and what it means. Every answer whose failure carries a code takes its HTTP status from here
 * (`httpStatusOf`), and docs/errors.md is generated from it (scripts/write-error-table.ts; a test fails when the
 * file is stale). Where the spec's row says "-" the status is ours and the row says so (`ours: true`).
 */

export interface ErrorRow {
  code: number;
  /** The HTTP status of an answer whose (first) failure has this code; `null`: never a whole answer's code. */
  http: number | null;
  /** The status is our choice (the spec's row shows "-" or the code is ours). */
  ours?: true;
  meaning: string;
}

export const ERROR_TABLE: readonly ErrorRow[] = [
  { code: 101, http: 400, meaning: 'Missing or incorrect parameters, malformed JSON, a body over 16 KB, unknown fields, bad region, volume not an integer 0-100, `allowCountries` from an ineligible threads account (404 for an unknown route or id)' },
  { code: 102, http: 401, ours: true, meaning: 'API key missing or invalid' },
  { code: 103, http: 404, ours: true, meaning: '`Profile-Key` does not belong to this API key\'s account' },
  { code: 104, http: 403, ours: true, meaning: 'The plan or add-on does not include the feature (also the widget, frame or popup, without the max-pack add-on)' },
  { code: 105, http: 403, ours: true, meaning: 'The profile is suspended after a repeat facebook community standards block (249): nothing is published or linked until the Primary Profile lifts it (`PATCH /profiles`)' },
  { code: 106, http: 429, meaning: 'Monthly post quota used (not a rate limit); due scheduled posts also fail with it' },
  { code: 111, http: 400, ours: true, meaning: 'twitter rejected the post; read `details`' },
  { code: 119, http: 503, ours: true, meaning: 'linkedin connection issue; safe to retry later' },
  { code: 137, http: 400, ours: true, meaning: 'Duplicate or similar content within the 48-hour window' },
  { code: 138, http: 400, meaning: 'Generic instagram error (media fetch blocked, aspect ratio, format)' },
  { code: 140, http: 400, ours: true, meaning: 'Image aspect ratio outside the allowed range' },
  { code: 163, http: 400, ours: true, meaning: 'Missing, empty or invalid platform(s), or a network not linked or not offered' },
  { code: 164, http: 400, meaning: 'Media access or input problem' },
  { code: 182, http: 400, ours: true, meaning: 'Video duration or size outside the network\'s limits' },
  { code: 186, http: 404, ours: true, meaning: 'Network post id not found for the account and platform' },
  { code: 188, http: 400, ours: true, meaning: 'Link session email requested without `to`' },
  { code: 249, http: 400, meaning: 'facebook community standards block; a repeat violation unlinks the account and suspends the profile' },
  { code: 250, http: 400, ours: true, meaning: 'Watermark cannot be set for the channel' },
  { code: 258, http: 400, meaning: 'instagram account-state error' },
  { code: 272, http: 400, meaning: 'twitter own-credential identity not verifiable' },
  { code: 275, http: 400, ours: true, meaning: 'Text splits into more than 30 posts as a thread' },
  { code: 307, http: 400, ours: true, meaning: 'Media type unsupported (a warning for a youtube `thumbNail`)' },
  { code: 326, http: 403, meaning: 'Meta-platform identity verification required; relinking does not help' },
  { code: 331, http: 500, meaning: 'Moderation processing failure; retryable' },
  { code: 333, http: null, meaning: 'Link email failed to send (inside `emailError`)' },
  { code: 364, http: 429, meaning: 'twitter rate limit (per developer app)' },
  { code: 379, http: 400, ours: true, meaning: 'threads posting error' },
  { code: 416, http: 402, meaning: 'twitter API credits depleted' },
  { code: 417, http: 403, meaning: 'twitter access token lacks write permission' },
  { code: 419, http: 400, meaning: 'Missing twitter own-credential headers' },
  { code: 423, http: 403, meaning: 'Legacy twitter OAuth no longer supported' },
  { code: 435, http: 429, meaning: 'instagram rate limit: 50 posts per rolling 24 hours' },
  { code: 436, http: 400, meaning: 'instagram media processing timeout; retry' },
  { code: 438, http: 400, meaning: 'Moderation input rejected' },
  { code: 440, http: 400, meaning: 'instagram could not ingest media (transient); retry' },
  { code: 441, http: 502, meaning: 'Caption enhancement failed; never produced here: link shortening runs on this service, before the post is stored, and cannot fail per platform' },
  { code: 442, http: 400, meaning: 'Account banned from the target reddit community' },
  { code: 443, http: 400, meaning: 'reddit title contains a disallowed word' },
  { code: 444, http: 429, meaning: 'facebook page analytics rate limit' },
  { code: 447, http: 400, meaning: 'Trial reel `graduationStrategy` missing, null or empty' },
  { code: 448, http: 400, meaning: 'Trial reel `graduationStrategy` not `MANUAL` or `SS_PERFORMANCE`' },
  { code: 449, http: 400, meaning: 'Trial reel media not eligible' },
  { code: 450, http: 400, meaning: 'Image conversion to JPEG failed' },
  { code: 451, http: 400, meaning: 'Image download for conversion failed' },
  { code: 452, http: 500, meaning: 'Converted image staging failed; retryable' },
  { code: 453, http: 504, meaning: 'youtube upload timed out; retryable' },
  { code: 454, http: 503, meaning: 'youtube upload service unavailable; retryable' },
  { code: 475, http: 403, meaning: 'linkedin personal profile must be relinked for analytics' },
  { code: 476, http: 400, meaning: 'facebook account restriction' },
  { code: 479, http: 400, meaning: 'Network crawler blocked or source unreachable even after re-hosting' },
  { code: 490, http: 404, ours: true, meaning: 'Automation private reply: comment id invalid' },
  { code: 499, http: 503, meaning: 'Internal media probe unavailable; retryable' },
  { code: 501, http: 401, ours: true, meaning: 'Link unknown, expired or revoked: one answer for all three' },
  { code: 502, http: 403, ours: true, meaning: 'Network not allowed by this session\'s `allowedSocial`' },
  { code: 503, http: 503, ours: true, meaning: 'Network not available on this service, or a network that could not be reached' },
  { code: 504, http: 403, ours: true, meaning: '`expiresIn` without the max-pack add-on' },
  { code: 505, http: 400, ours: true, meaning: '`origin` invalid or not in the account\'s allowlist' },
  { code: 506, http: 400, ours: true, meaning: '`domain` missing (several linking domains) or unknown' },
  { code: 507, http: 400, ours: true, meaning: '`allowedSocial` not a non-empty array of known networks' },
  { code: 508, http: 400, ours: true, meaning: '`instagramLinkMethod` not `instagram` or `facebook`' },
  { code: 509, http: 400, ours: true, meaning: '`redirect` not an acceptable URL' },
  { code: 510, http: 429, ours: true, meaning: 'Rate limited (with `Retry-After`)' },
  { code: 511, http: 400, ours: true, meaning: 'OAuth callback with an unknown, expired, reused or mismatched `state`' },
  { code: 512, http: 502, ours: true, meaning: 'The network refused the code exchange or the identity lookup' },
  { code: 513, http: null, meaning: 'Connecting the account failed (arrives as `connect:error`)' },
  { code: 514, http: 400, ours: true, meaning: 'instagram Reels audio not available on accounts linked with direct instagram login' },
  { code: 518, http: 200, meaning: 'Warning: `audioConfiguration` wins, `audioName` dropped' },
  { code: 519, http: 503, meaning: 'gmb authorization refresh temporarily unavailable; retryable' },
  { code: 521, http: 200, meaning: 'Warning: `pinterestOptions.aiDisclosures` invalid; the pin publishes without disclosure' },
  { code: 522, http: 400, meaning: 'threads media not ready after 30 seconds; retry' },
  { code: 524, http: 500, meaning: 'linkedin token refresh rejected (application configuration)' },
];

const BY_CODE = new Map(ERROR_TABLE.map((row) => [row.code, row]));

/**
 * The HTTP status of an answer failing with `code`: the table's row, else `fallback` (a network's own code the
 * table does not list, or a code whose row is not a whole answer's).
 */
export function httpStatusOf(code: number, fallback = 400): number {
  const http = BY_CODE.get(code)?.http;
  return http === null || http === undefined || http === 200 ? fallback : http;
}
