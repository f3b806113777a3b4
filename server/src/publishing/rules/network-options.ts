/**
 * @module
 * Rules of the network option objects of spec 2.1, with the codes of spec 7:
 * - instagram trial reels (`instagramOptions.trialParams`): `graduationStrategy` missing, null or empty → 447; not
 *   exactly `MANUAL` or `SS_PERFORMANCE` (case-sensitive) → 448, echoing the input cut to 64 characters; media not one
 *   .mp4/.mov video, or a story → 449;
 * - instagram `audioVolume` / `videoVolume`: an integer 0-100, not null, not a numeric string → 101;
 * - instagram `audioConfiguration` with `audioName` → warning 518 (`audioName` is dropped);
 * - pinterest `aiDisclosures` not an array of `AI_MODIFIED` / `SYNTHETIC_PERFORMER` → warning 521 (published without);
 * - threads `allowCountries`: ISO 3166 alpha-2 codes, from an account eligible for geo restrictions → else 101;
 * - twitter `longPost`, `longVideo`, `subscribersOnly`: booleans → else 101.
 * Warnings (518, 521) do not stop the post: see `isWarning`.
 */
import type { Network } from '@social-link-kit/protocol';

export interface RuleIssue {
  code: number;
  message: string;
  /** The request field at fault, e.g. `instagramOptions.trialParams.graduationStrategy`. */
  field?: string;
  /** For the error envelope's `details` (448 echoes the input here). */
  details?: Record<string, unknown>;
}

/** The request fields these rules read: `PostRequest` fits it. */
export interface NetworkOptionsRequest {
  mediaUrls?: string[] | { [platform: string]: string[] | undefined };
  isVideo?: boolean;
  instagramOptions?: Record<string, unknown>;
  pinterestOptions?: Record<string, unknown>;
  threadsOptions?: Record<string, unknown>;
  twitterOptions?: Record<string, unknown>;
}

export interface NetworkOptionsContext {
  /** The threads account may restrict a post to countries (`/user` field `isEligibleForGeoRestrictions`). */
  geoRestrictionsEligible?: boolean;
}

export const WARNING_CODES: ReadonlySet<number> = new Set([518, 521]);

/** A warning goes into `postIds[].warnings[]` and the post continues; any other issue fails the platform. */
export function isWarning(issue: RuleIssue): boolean {
  return WARNING_CODES.has(issue.code);
}

const GRADUATION_STRATEGIES = ['MANUAL', 'SS_PERFORMANCE'];
const AI_DISCLOSURES = ['AI_MODIFIED', 'SYNTHETIC_PERFORMER'];
const TRIAL_VIDEO_EXTENSION = /\.(mp4|mov)$/i;
const ANY_EXTENSION = /\.[a-z0-9]{2,5}$/i;
const COUNTRY_CODE = /^[A-Z]{2}$/;
const ECHO_LIMIT = 64;

export function validateNetworkOptions(
  platform: Network,
  request: NetworkOptionsRequest,
  context: NetworkOptionsContext = {},
): RuleIssue[] {
  switch (platform) {
    case 'instagram':
      return instagramIssues(request);
    case 'pinterest':
      return pinterestIssues(request.pinterestOptions);
    case 'threads':
      return threadsIssues(request.threadsOptions, context);
    case 'twitter':
      return twitterIssues(request.twitterOptions);
    default:
      return [];
  }
}

/** The media URLs a platform gets: its own key of the object form, else `default`, else the list. */
export function mediaUrlsFor(request: NetworkOptionsRequest, platform: Network): string[] {
  const media = request.mediaUrls;
  if (media === undefined) return [];
  if (Array.isArray(media)) return media;
  return media[platform] ?? media.default ?? [];
}

function instagramIssues(request: NetworkOptionsRequest): RuleIssue[] {
  const options = request.instagramOptions;
  if (options === undefined) return [];
  const issues: RuleIssue[] = [];
  if ('trialParams' in options) issues.push(...trialReelIssues(options, request));
  for (const key of ['audioVolume', 'videoVolume']) {
    if (!(key in options)) continue;
    const value = options[key];
    if (!Number.isInteger(value) || (value as number) < 0 || (value as number) > 100) {
      issues.push({
        code: 101,
        field: `instagramOptions.${key}`,
        message: `instagramOptions.${key} must be an integer from 0 to 100; got ${describe(value)}`,
      });
    }
  }
  if (isPresent(options.audioConfiguration) && isPresent(options.audioName)) {
    issues.push({
      code: 518,
      field: 'audioName', // spec 7: the warning's `feature` is `audioName`
      message: 'instagramOptions.audioConfiguration was used and audioName was dropped',
    });
  }
  return issues;
}

function trialReelIssues(options: Record<string, unknown>, request: NetworkOptionsRequest): RuleIssue[] {
  const field = 'instagramOptions.trialParams.graduationStrategy';
  const trial = options.trialParams;
  const strategy = isObject(trial) ? trial.graduationStrategy : undefined;
  const issues: RuleIssue[] = [];
  if (strategy === undefined || strategy === null || strategy === '') {
    issues.push({ code: 447, field, message: 'Trial reel graduationStrategy is missing or empty: use MANUAL or SS_PERFORMANCE' });
  } else if (typeof strategy !== 'string' || !GRADUATION_STRATEGIES.includes(strategy)) {
    const received = (typeof strategy === 'string' ? strategy : JSON.stringify(strategy)).slice(0, ECHO_LIMIT);
    issues.push({
      code: 448,
      field,
      message: 'Trial reel graduationStrategy must be exactly MANUAL or SS_PERFORMANCE',
      details: { received },
    });
  }
  const media = mediaUrlsFor(request, 'instagram');
  if (options.stories === true) {
    issues.push({ code: 449, field: 'instagramOptions.stories', message: 'A trial reel cannot be a story' });
  } else if (media.length !== 1 || !isTrialVideo(media[0] ?? '', request.isVideo === true)) {
    issues.push({
      code: 449,
      field: 'mediaUrls',
      message: `A trial reel needs exactly one .mp4 or .mov video, not ${media.length === 1 ? 'this media' : `${media.length} media`}`,
    });
  }
  return issues;
}

function isTrialVideo(url: string, declaredVideo: boolean): boolean {
  const path = urlPath(url);
  if (TRIAL_VIDEO_EXTENSION.test(path)) return true;
  // `isVideo` declares a video whose URL has no extension (spec 2.1); a URL naming another type is not one.
  return declaredVideo && !ANY_EXTENSION.test(path);
}

function pinterestIssues(options: Record<string, unknown> | undefined): RuleIssue[] {
  if (options === undefined || !('aiDisclosures' in options)) return [];
  const value = options.aiDisclosures;
  const valid = Array.isArray(value) && value.every((entry) => typeof entry === 'string' && AI_DISCLOSURES.includes(entry));
  if (valid) return [];
  return [
    {
      code: 521,
      field: 'pinterestOptions.aiDisclosures',
      message: `pinterestOptions.aiDisclosures must list only AI_MODIFIED or SYNTHETIC_PERFORMER; the pin is published without disclosure`,
    },
  ];
}

function threadsIssues(options: Record<string, unknown> | undefined, context: NetworkOptionsContext): RuleIssue[] {
  if (options === undefined || !('allowCountries' in options)) return [];
  const field = 'threadsOptions.allowCountries';
  const value = options.allowCountries;
  if (!Array.isArray(value) || value.length === 0 || !value.every((code) => typeof code === 'string' && COUNTRY_CODE.test(code))) {
    return [{ code: 101, field, message: `${field} must be a non-empty array of ISO 3166 alpha-2 country codes such as "US"` }];
  }
  if (context.geoRestrictionsEligible !== true) {
    return [{ code: 101, field, message: `${field} needs a threads account eligible for geographic restrictions` }];
  }
  return [];
}

function twitterIssues(options: Record<string, unknown> | undefined): RuleIssue[] {
  if (options === undefined) return [];
  return ['longPost', 'longVideo', 'subscribersOnly']
    .filter((key) => key in options && typeof options[key] !== 'boolean')
    .map((key) => ({
      code: 101,
      field: `twitterOptions.${key}`,
      message: `twitterOptions.${key} must be true or false; got ${describe(options[key])}`,
    }));
}

function urlPath(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url.split(/[?#]/)[0] ?? url;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isPresent(value: unknown): boolean {
  return value !== undefined && value !== null;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.slice(0, ECHO_LIMIT))}`;
  if (typeof value === 'number') return String(value);
  return Array.isArray(value) ? 'an array' : typeof value;
}
