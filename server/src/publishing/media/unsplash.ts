/**
 * @module
 * The post field `unsplash` (the public API's name for spec 2.1's stock images): `random`, a search term, or photo
 * ids, resolved against Unsplash's API at create time:
 * - `random` → `GET /photos/random`; a term → `GET /search/photos?query=…` (its first result); ids → `GET /photos/:id`.
 * - Each chosen photo's `links.download_location` is called (`GET /photos/:id/download`): Unsplash's guidelines
 *   require it when an app uses a photo. Not on a dry run (`/api/validate/post`), which uses nothing.
 * - The post gets the photo's hotlinked `urls.regular` as a media URL (after its own), and keeps the photographer's
 *   credit (guidelines: "Photo by <name> on Unsplash", linked, with referral parameters).
 * Every call goes through the media pipeline's guarded fetch with `Authorization: Client-ID <access key>`. Without
 * `UNSPLASH_ACCESS_KEY` the service asks the sandbox (`{publicUrl}/sandbox/unsplash`), which serves the same paths.
 * Written with plain fetch: Unsplash's own JS client (unsplash-js) is archived, and four GETs need no library.
 */
import type { UnsplashAttribution } from '@social-link-kit/protocol/publishing/index.js';

/** Unsplash's API, used when an access key is set. */
const UNSPLASH_API = 'https://api.unsplash.com';
/** The key the sandbox Unsplash accepts (it is no secret: the sandbox serves only its own catalogue). */
export const SANDBOX_UNSPLASH_KEY = 'sandbox-unsplash-access-key';
/** Where the sandbox Unsplash is mounted under the service's public URL. */
export const SANDBOX_UNSPLASH_PATH = '/sandbox/unsplash';

export interface UnsplashSettings {
  apiUrl: string;
  accessKey: string;
}

export interface UnsplashDeps {
  settings: UnsplashSettings;
  fetch: (url: string | URL, init?: RequestInit) => Promise<Response>;
}

/** The configured Unsplash: the real API with `UNSPLASH_ACCESS_KEY`, the sandbox's without. */
export function unsplashSettings(publicUrl: string, accessKey: string | null, apiUrl: string | null): UnsplashSettings {
  return { apiUrl: apiUrl ?? (accessKey ? UNSPLASH_API : `${publicUrl}${SANDBOX_UNSPLASH_PATH}`), accessKey: accessKey ?? SANDBOX_UNSPLASH_KEY };
}

/** Where the stored request keeps the chosen photos' credits (shown as `unsplash` on the post). */
export const UNSPLASH_ATTRIBUTION_FIELD = 'unsplashAttribution';

/** Why the field could not be resolved; `status` is the HTTP status of the answer to the integrator. */
export interface UnsplashProblem {
  status: 400 | 429 | 503;
  message: string;
  details: Record<string, unknown>;
}

export interface UnsplashChoice {
  mediaUrls: string[];
  attribution: UnsplashAttribution[];
  /** The download-tracking calls to make once the post is accepted. */
  downloadLocations: string[];
}

interface Photo {
  id: string;
  urls: { regular: string };
  links: { html: string; download_location: string };
  user: { name: string; links: { html: string } };
}

/** Unsplash's guidelines ask for these on every link back. */
const REFERRAL = 'utm_source=social-link-kit&utm_medium=referral';
const withReferral = (url: string) => `${url}${url.includes('?') ? '&' : '?'}${REFERRAL}`;

const problem = (status: UnsplashProblem['status'], message: string, details: Record<string, unknown> = {}): UnsplashProblem => ({
  status,
  message,
  details: { field: 'unsplash', ...details },
});
const isProblem = (value: unknown): value is UnsplashProblem => typeof value === 'object' && value !== null && 'message' in value && 'status' in value;

function isPhoto(value: unknown): value is Photo {
  const photo = value as Photo | null;
  return typeof photo?.id === 'string' && typeof photo.urls?.regular === 'string' && typeof photo.links?.download_location === 'string' && typeof photo.user?.name === 'string';
}

async function call(deps: UnsplashDeps, path: string, query: Record<string, string> = {}): Promise<{ status: number; json: unknown } | UnsplashProblem> {
  const url = new URL(`${deps.settings.apiUrl.replace(/\/+$/, '')}${path}`);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  return callUrl(deps, url);
}

async function callUrl(deps: UnsplashDeps, url: URL): Promise<{ status: number; json: unknown } | UnsplashProblem> {
  let response: Response;
  try {
    response = await deps.fetch(url, { headers: { Authorization: `Client-ID ${deps.settings.accessKey}`, 'Accept-Version': 'v1', Accept: 'application/json' } });
  } catch (error) {
    return problem(503, `Unsplash could not be reached: ${error instanceof Error ? error.message : String(error)}`);
  }
  const json = (await response.json().catch(() => null)) as unknown;
  // Unsplash answers a spent hourly allowance with 403 "Rate Limit Exceeded" (and X-Ratelimit-Remaining: 0).
  if (response.status === 429 || (response.status === 403 && response.headers.get('x-ratelimit-remaining') === '0')) {
    return problem(429, 'The Unsplash rate limit is used up; try again within the hour.', { provider: 'unsplash', status: response.status });
  }
  if (response.status === 401 || response.status === 403 || response.status >= 500) {
    return problem(503, `Unsplash refused the request (HTTP ${response.status}); the service's Unsplash access key may be wrong.`, { provider: 'unsplash', status: response.status });
  }
  return { status: response.status, json };
}

async function photoById(deps: UnsplashDeps, id: string): Promise<Photo | UnsplashProblem | null> {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) return null;
  const answer = await call(deps, `/photos/${encodeURIComponent(id)}`);
  if (isProblem(answer)) return answer;
  if (answer.status === 404) return null;
  return answer.status === 200 && isPhoto(answer.json) ? answer.json : problem(503, `Unsplash answered the photo ${id} unexpectedly (HTTP ${answer.status}).`);
}

async function choose(deps: UnsplashDeps, value: string | string[]): Promise<Photo[] | UnsplashProblem> {
  if (Array.isArray(value)) {
    const photos: Photo[] = [];
    const unknown: string[] = [];
    for (const id of value) {
      const photo = await photoById(deps, id);
      if (isProblem(photo)) return photo;
      if (photo) photos.push(photo);
      else unknown.push(id);
    }
    if (unknown.length > 0) return problem(400, `Unknown Unsplash photo id(s): ${unknown.join(', ').slice(0, 200)}.`, { unknown: unknown.slice(0, 10) });
    return photos;
  }
  const term = value.trim();
  if (term === '') return problem(400, 'unsplash: give `random`, a search term, or an array of photo ids.');
  if (term.toLowerCase() === 'random') {
    const answer = await call(deps, '/photos/random');
    if (isProblem(answer)) return answer;
    return answer.status === 200 && isPhoto(answer.json) ? [answer.json] : problem(503, `Unsplash gave no random photo (HTTP ${answer.status}).`);
  }
  const answer = await call(deps, '/search/photos', { query: term, per_page: '1' });
  if (isProblem(answer)) return answer;
  const first = (answer.json as { results?: unknown[] } | null)?.results?.[0];
  if (answer.status === 200 && first === undefined) return problem(400, `No Unsplash photo matches "${term.slice(0, 100)}".`, { search: term.slice(0, 100) });
  return answer.status === 200 && isPhoto(first) ? [first] : problem(503, `Unsplash search failed (HTTP ${answer.status}).`);
}

/** Resolves the field to photos, media URLs and credits; calls nothing irreversible (tracking comes after). */
export async function resolveUnsplash(value: string | string[], deps: UnsplashDeps): Promise<UnsplashChoice | UnsplashProblem> {
  const photos = await choose(deps, value);
  if (isProblem(photos)) return photos;
  return {
    mediaUrls: photos.map((photo) => photo.urls.regular),
    attribution: photos.map((photo) => ({
      id: photo.id,
      photographer: photo.user.name,
      photographerUrl: withReferral(photo.user.links.html),
      photoUrl: withReferral(photo.links.html),
      text: `Photo by ${photo.user.name} on Unsplash`,
    })),
    downloadLocations: photos.map((photo) => photo.links.download_location),
  };
}

/**
 * The download-tracking calls (guidelines: required when a photo is used). Only URLs on the configured API's
 * origin are called, so a provider's answer cannot steer the service elsewhere. Failures are logged, not fatal:
 * the post is already accepted.
 */
export async function trackUnsplashDownloads(choice: UnsplashChoice, deps: UnsplashDeps, log: (event: string, fields: Record<string, unknown>) => void): Promise<void> {
  const origin = new URL(deps.settings.apiUrl).origin;
  for (const location of choice.downloadLocations) {
    const url = URL.canParse(location) ? new URL(location) : null;
    if (!url || url.origin !== origin) {
      log('unsplash.download_not_tracked', { reason: 'foreign download_location' });
      continue;
    }
    const answer = await callUrl(deps, url);
    if (isProblem(answer) || answer.status !== 200) log('unsplash.download_not_tracked', { status: isProblem(answer) ? answer.status : answer.status });
  }
}

export { isProblem as isUnsplashProblem };
