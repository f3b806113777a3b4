/**
 * @module
 * Auto hashtags (spec 2.1 `autoHashtag`): picks keywords from the text itself, with no outside service, so the same
 * text always gets the same hashtags. A keyword is a word of at least 3 characters with a letter in it, not an
 * English stop word, not already a hashtag in the text, and not part of a URL, a mention or a markup tag. Keywords
 * rank by how often they occur (any case), then by length (longer words are more specific), then by first
 * appearance. `position: 'auto'` turns the first occurrence of each chosen word into a hashtag where it stands;
 * `'end'` appends the hashtags after the text. Call it on the request's text, before rich text is rendered.
 */
import { STOP_WORDS } from './stop-words.js';
import { findUrls } from '../../networks/text/text-length.js';

export interface AutoHashtagOptions {
  /** How many hashtags to add, 1-10; default 2. */
  max?: number;
  position?: 'auto' | 'end';
}

export const DEFAULT_HASHTAG_COUNT = 2;
const MAX_HASHTAG_COUNT = 10;

const WORD = /[\p{L}\p{N}_]+/gu;
const HAS_LETTER = /\p{L}/u;
/**
 * Existing hashtags and mentions, the markup tags of rich text, and any address written with a scheme (also one a
 * network would not link, e.g. an unknown top-level domain): words inside them are not candidates.
 */
const PROTECTED = /[#@][\p{L}\p{N}_]+|<\/?[a-zA-Z]+\s*>|\b[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^\s<]+/gu;

export interface Candidate {
  key: string;
  count: number;
  length: number;
  firstIndex: number;
  /** Where its first occurrence is, in the text. */
  start: number;
  word: string;
}

export function addHashtags(text: string, options: AutoHashtagOptions = {}): string {
  const max = Math.min(MAX_HASHTAG_COUNT, Math.max(1, Math.trunc(options.max ?? DEFAULT_HASHTAG_COUNT)));
  const chosen = pickKeywords(text, max);
  if (chosen.length === 0) return text;
  if (options.position === 'end') return `${text.trimEnd()} ${chosen.map((c) => `#${c.word}`).join(' ')}`;
  // In place, from the last occurrence backwards so earlier indexes stay valid.
  let out = text;
  for (const candidate of [...chosen].sort((a, b) => b.start - a.start)) {
    out = `${out.slice(0, candidate.start)}#${out.slice(candidate.start)}`;
  }
  return out;
}

/** The keywords `addHashtags` would use, best first. */
export function pickKeywords(text: string, max: number): Candidate[] {
  const blocked = protectedRanges(text);
  const existing = new Set(Array.from(text.matchAll(/#([\p{L}\p{N}_]+)/gu), (m) => (m[1] ?? '').toLowerCase()));
  const candidates = new Map<string, Candidate>();
  let order = 0;
  let nextBlocked = 0;
  for (const match of text.matchAll(WORD)) {
    const word = match[0];
    const key = word.toLowerCase();
    const start = match.index;
    // Words come in text order and the ranges are sorted: skip the ranges that end before this word.
    while (nextBlocked < blocked.length && (blocked[nextBlocked]?.[1] ?? 0) <= start) nextBlocked++;
    const range = blocked[nextBlocked];
    if (range && start >= range[0]) continue;
    if (!HAS_LETTER.test(word) || Array.from(word).length < 3 || STOP_WORDS.has(key) || existing.has(key)) continue;
    const known = candidates.get(key);
    if (known) known.count++;
    else candidates.set(key, { key, count: 1, length: Array.from(word).length, firstIndex: order++, start, word });
  }
  return [...candidates.values()]
    .sort((a, b) => b.count - a.count || b.length - a.length || a.firstIndex - b.firstIndex)
    .slice(0, max);
}

function protectedRanges(text: string): [number, number][] {
  const ranges: [number, number][] = findUrls(text).map((url) => [url.start, url.end]);
  for (const match of text.matchAll(PROTECTED)) ranges.push([match.index, match.index + match[0].length]);
  return ranges.sort((a, b) => a[0] - b[0]);
}
