/**
 * @module
 * Text length as each network counts it (capabilities `text.unit`), one implementation for the service's rules and
 * the demo composer:
 * - `chars`: Unicode code points (an emoji outside the BMP is one, not two UTF-16 units);
 * - `graphemes`: user-perceived characters (Intl.Segmenter), as bluesky counts its 300;
 * - `bytes`: UTF-8 bytes, as youtube counts its description;
 * - `weighted`: X's rule (twitter-text's `parseTweet`, config v3): the text NFC-normalised, every URL 23 (found
 *   with twitter-text's own patterns, so bare domains such as `foo.co.uk` and `bar.io` count too), every emoji
 *   sequence 2, code points in the Latin/punctuation ranges 1, everything else (CJK, most other scripts) 2. A server
 *   test holds this against twitter-text itself over a corpus of mixed texts.
 */
import type { TextUnit } from './capabilities.js';
import { segmentText } from './segments.js';
import { EXTRACT_URL, INVALID_URL_WITHOUT_PROTOCOL_PRECEDING_CHARS, VALID_ASCII_DOMAIN, VALID_TCO_URL } from './twitter-url-patterns.js';

export const TWITTER_URL_WEIGHT = 23;
/** twitter-text's limits: a longer URL is not linked; a t.co slug is at most 40 characters. */
const MAX_URL_LENGTH = 4096;
const MAX_TCO_SLUG_LENGTH = 40;
const MAX_DOMAIN_LABEL_LENGTH = 63;
const PICTOGRAPHIC = /\p{Extended_Pictographic}/u;
const REGIONAL_INDICATOR = /\p{Regional_Indicator}/u;

/** Code point ranges X weighs 1; everything else weighs 2. */
const LIGHT_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x0000, 0x10ff],
  [0x2000, 0x200d],
  [0x2010, 0x201f],
  [0x2032, 0x2037],
];

export function measureText(text: string, unit: TextUnit): number {
  switch (unit) {
    case 'chars':
      return countCodePoints(text);
    case 'graphemes':
      return countGraphemes(text);
    case 'bytes':
      return new TextEncoder().encode(text).length;
    case 'weighted':
      return twitterWeightedLength(text);
  }
}

export function countCodePoints(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

export function countGraphemes(text: string): number {
  return segmentText(text, 'grapheme').length;
}

/** The URLs X counts as 23 each, with their positions in `text` (twitter-text's `extractUrlsWithIndices`). */
export function findUrls(text: string): { start: number; end: number }[] {
  if (!text.includes('.')) return [];
  const found: { start: number; end: number }[] = [];
  const extract = new RegExp(EXTRACT_URL.source, EXTRACT_URL.flags);
  for (let match = extract.exec(text); match !== null; match = extract.exec(text)) {
    const before = match[2] ?? '';
    let url = match[3] ?? '';
    const protocol = match[4] ?? '';
    const domain = match[5] ?? '';
    const path = match[7];
    const end = extract.lastIndex;
    const start = end - url.length;
    if (!isValidUrl(url, protocol || 'https://', domain)) continue;
    if (!protocol) {
      // Without a scheme only ASCII domains are links, and not after `-`, `_`, `.` or `/`.
      if (new RegExp(INVALID_URL_WITHOUT_PROTOCOL_PRECEDING_CHARS.source).test(before)) continue;
      let last: { start: number; end: number } | null = null;
      let asciiEnd = 0;
      for (const ascii of domain.matchAll(new RegExp(VALID_ASCII_DOMAIN.source, VALID_ASCII_DOMAIN.flags))) {
        const asciiStart = domain.indexOf(ascii[0], asciiEnd);
        asciiEnd = asciiStart + ascii[0].length;
        last = { start: start + asciiStart, end: start + asciiEnd };
        found.push(last);
      }
      if (last && path) last.end = end;
      continue;
    }
    // A t.co link takes no further path characters.
    const tco = new RegExp(VALID_TCO_URL.source, VALID_TCO_URL.flags).exec(url);
    if (tco) {
      if ((tco[1] ?? '').length > MAX_TCO_SLUG_LENGTH) continue;
      url = tco[0];
    }
    found.push({ start, end: start + url.length });
  }
  return found;
}

/** twitter-text's check: each label punycode-encoded is 1-63 characters; an `xn--` domain must be ASCII. */
function isValidUrl(url: string, protocol: string, domain: string): boolean {
  if (domain.startsWith('xn--') && !new RegExp(VALID_ASCII_DOMAIN.source, VALID_ASCII_DOMAIN.flags).test(domain)) return false;
  if (domain.split('.').some((label) => { const length = punycodeLength(label); return length < 1 || length > MAX_DOMAIN_LABEL_LENGTH; })) return false;
  return protocol.length + url.length <= MAX_URL_LENGTH;
}

/** Length of `label` as punycode.toASCII writes it: as is when ASCII, else `xn--` + its RFC 3492 encoding. */
function punycodeLength(label: string): number {
  const codePoints = Array.from(label, (char) => char.codePointAt(0)!);
  const basic = codePoints.filter((cp) => cp < 0x80).length;
  if (basic === codePoints.length) return label.length;
  let output = basic > 0 ? basic + 1 : 0;
  let n = 128;
  let delta = 0;
  let bias = 72;
  let handled = basic;
  while (handled < codePoints.length) {
    const m = Math.min(...codePoints.filter((cp) => cp >= n));
    delta += (m - n) * (handled + 1);
    n = m;
    for (const cp of codePoints) {
      if (cp < n) delta++;
      if (cp !== n) continue;
      let q = delta;
      for (let k = 36; ; k += 36) {
        const t = k <= bias ? 1 : k >= bias + 26 ? 26 : k - bias;
        if (q < t) break;
        output++;
        q = Math.floor((q - t) / (36 - t));
      }
      output++;
      bias = adapt(delta, handled + 1, handled === basic);
      delta = 0;
      handled++;
    }
    delta++;
    n++;
  }
  return 4 + output;
}

function adapt(delta: number, points: number, first: boolean): number {
  let d = first ? Math.floor(delta / 700) : delta >> 1;
  d += Math.floor(d / points);
  let k = 0;
  while (d > 455) {
    d = Math.floor(d / 35);
    k += 36;
  }
  return k + Math.floor((36 * d) / (d + 38));
}

export function twitterWeightedLength(input: string): number {
  const text = input.normalize('NFC');
  let weight = 0;
  let position = 0;
  for (const url of findUrls(text)) {
    weight += weighPlainText(text.slice(position, url.start));
    weight += TWITTER_URL_WEIGHT;
    position = url.end;
  }
  return weight + weighPlainText(text.slice(position));
}

function weighPlainText(text: string): number {
  let weight = 0;
  for (const segment of segmentText(text, 'grapheme')) {
    if (isEmoji(segment)) {
      // A joiner that joins nothing after the emoji is not part of it: it weighs 1 on its own.
      weight += 2 + (/\u200d+$/u.exec(segment)?.[0].length ?? 0);
      continue;
    }
    for (const char of segment) weight += isLight(char.codePointAt(0) ?? 0) ? 1 : 2;
  }
  return weight;
}

/**
 * An emoji sequence (skin tone, ZWJ family, flag, keycap) counts 2 as a whole, judged by its first character (a
 * grapheme a URL cut in two is weighed character by character). `©` and `®` are emoji for X only with the emoji
 * variation selector (U+FE0F); alone they are Latin-range characters weighing 1.
 */
function isEmoji(segment: string): boolean {
  const first = String.fromCodePoint(segment.codePointAt(0) ?? 0);
  if (REGIONAL_INDICATOR.test(first)) return true;
  if (/^[0-9#*]$/.test(first)) return segment.includes('\u20e3');
  return PICTOGRAPHIC.test(first) && (first.codePointAt(0)! > 0x10ff || segment.includes('\ufe0f'));
}

function isLight(codePoint: number): boolean {
  return LIGHT_RANGES.some(([low, high]) => codePoint >= low && codePoint <= high);
}
