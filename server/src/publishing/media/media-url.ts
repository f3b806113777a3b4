/**
 * @module
 * A media URL as given in `mediaUrls`, checked before anything is fetched (spec 4.9 rule 1, code 164): an absolute
 * http(s) address, without spaces or encoded spaces, no credentials; share links become direct downloads.
 */
import { directDownloadUrl } from './share-links.js';

export type MediaUrlParse = { ok: true; url: URL; rewritten: boolean } | { ok: false; message: string };

export function parseMediaUrl(raw: unknown): MediaUrlParse {
  if (typeof raw !== 'string' || raw.trim() === '') return { ok: false, message: 'A media URL must be a non-empty string.' };
  if (/\s/.test(raw)) return { ok: false, message: 'The media URL contains a space; give a direct URL without spaces.' };
  if (/%(20|09|0a|0d)/i.test(raw)) {
    return { ok: false, message: 'The media URL contains an encoded space (%20); give a direct URL without spaces.' };
  }
  if (!URL.canParse(raw)) return { ok: false, message: 'The media URL is not a valid absolute URL.' };
  const url = new URL(raw);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, message: 'The media URL must start with https:// or http://.' };
  if (url.username || url.password) return { ok: false, message: 'The media URL must not carry a user name or password.' };
  const direct = directDownloadUrl(url);
  return { ok: true, url: direct, rewritten: direct.href !== url.href };
}
