/**
 * @module
 * Text length as each network counts it (capabilities `text.unit`):
 * - `chars`: Unicode code points (an emoji outside the BMP is one, not two UTF-16 units);
 * - `graphemes`: user-perceived characters (Intl.Segmenter), as bluesky counts its 300;
 * - `bytes`: UTF-8 bytes, as youtube counts its description;
 * - `weighted`: twitter's rule: text NFC-normalised, every URL counts 23, every emoji sequence 2, code points in the
 *   Latin/punctuation ranges 1, everything else (CJK, most other scripts) 2.
 */
import type { TextUnit } from '../../../../src/protocol/publishing/capabilities.js';
import { segmentText } from './segments.js';

/** URLs as twitter would link them: with a scheme, or starting with `www.`. */
const URL_PATTERN = /\b(?:https?:\/\/|www\.)[^\s<>"]+/giu;
/** Trailing punctuation is not part of a linked URL ("see https://x.com/a." links without the dot). */
const URL_TRAILING_PUNCTUATION = /[.,;:!?)\]}'"]+$/u;

export const TWITTER_URL_WEIGHT = 23;
const EMOJI = /\p{Extended_Pictographic}|\p{Regional_Indicator}/u;

/** Code point ranges twitter weighs 1; everything else weighs 2. */
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

/** The URLs twitter counts as 23 each, with their positions in `text`. */
export function findUrls(text: string): { start: number; end: number }[] {
  const found: { start: number; end: number }[] = [];
  for (const match of text.matchAll(URL_PATTERN)) {
    const url = match[0].replace(URL_TRAILING_PUNCTUATION, '');
    const start = match.index;
    found.push({ start, end: start + url.length });
  }
  return found;
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
    // An emoji sequence (skin tone, ZWJ family, flag) counts 2 as a whole.
    if (EMOJI.test(segment)) {
      weight += 2;
      continue;
    }
    for (const char of segment) weight += isLight(char.codePointAt(0) ?? 0) ? 1 : 2;
  }
  return weight;
}

function isLight(codePoint: number): boolean {
  return LIGHT_RANGES.some(([low, high]) => codePoint >= low && codePoint <= high);
}
