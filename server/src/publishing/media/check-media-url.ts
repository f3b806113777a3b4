/**
 * @module
 * The first step for every media URL (spec 4.9 rule 1): the URL itself is checked, share links are rewritten, and
 * the host is asked with HEAD through the guarded fetch. A host that blocks HEAD fails the post: 403 (and 405/501,
 * "HEAD not allowed") → 164 with the reason in `details`; 404, other 4xx and 5xx → 164; a refused or unreachable
 * host → 164.
 */
import { GuardedFetchError, type GuardedFetch } from '../../core/guarded-fetch.js';
import { mediaFailure, type MediaFailure } from './media-failure.js';
import { hasVideoExtension } from '../../core/video-extension.js';
import { parseMediaUrl } from './media-url.js';

export interface MediaCheckOk {
  ok: true;
  /** The address to download: the given one, or the direct download of a share link. */
  url: string;
  rewritten: boolean;
  status: number;
  contentType: string | null;
  contentLength: number | null;
  /** By extension or Content-Type only; the bytes decide later (sniff-media-type.ts). */
  looksLikeVideo: boolean;
}

export type MediaCheck = MediaCheckOk | ({ ok: false } & MediaFailure);

export interface MediaCheckDeps {
  fetch: GuardedFetch;
}

export async function checkMediaUrl(raw: unknown, deps: MediaCheckDeps): Promise<MediaCheck> {
  const parsed = parseMediaUrl(raw);
  if (!parsed.ok) return fail(mediaFailure(164, parsed.message, { mediaUrl: typeof raw === 'string' ? raw.slice(0, 500) : null }));
  const url = parsed.url.href;
  let response: Response;
  try {
    response = await deps.fetch(url, { method: 'HEAD' });
  } catch (error) {
    return fail(unreachable(url, error));
  }
  const status = response.status;
  const details = { mediaUrl: url, status, reason: response.statusText || undefined };
  if (status === 403 || status === 405 || status === 501) {
    return fail(mediaFailure(164, `The media host refused the HEAD request (HTTP ${status}). Media must be on a host that answers HEAD; hosts that block it cannot be used.`, { ...details, reason: `HEAD blocked: HTTP ${status}` }));
  }
  if (status === 404) return fail(mediaFailure(164, 'The media URL was not found (HTTP 404).', details));
  if (status >= 400) return fail(mediaFailure(164, `The media host answered HTTP ${status}.`, details));
  const contentType = response.headers.get('content-type');
  const length = Number(response.headers.get('content-length') ?? NaN);
  return {
    ok: true,
    url,
    rewritten: parsed.rewritten,
    status,
    contentType,
    contentLength: Number.isFinite(length) ? length : null,
    looksLikeVideo: hasVideoExtension(parsed.url) || (contentType?.toLowerCase().startsWith('video/') ?? false),
  };
}

/** A download that did not produce an answer, in the spec's terms (164 unless the caller says otherwise). */
export function unreachable(url: string, error: unknown, code = 164): MediaFailure {
  if (error instanceof GuardedFetchError) {
    const message =
      error.kind === 'refused'
        ? 'The media host is not a public address; media must be reachable from the internet.'
        : error.kind === 'too-large'
          ? 'The media file is larger than the service accepts.'
          : error.kind === 'bad-url'
            ? 'The media URL is not a valid http(s) URL.'
            : 'The media host could not be reached.';
    return mediaFailure(code, message, { mediaUrl: url, reason: error.message });
  }
  return mediaFailure(code, 'The media host could not be reached.', { mediaUrl: url, reason: error instanceof Error ? error.message : String(error) });
}

function fail(failure: MediaFailure): MediaCheck {
  return { ok: false, ...failure };
}
