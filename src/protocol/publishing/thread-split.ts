/**
 * @module
 * Splits a text too long for one post into thread parts, each within `max` in the network's unit. Cuts fall, in
 * order of preference, after a sentence, then between words, then between graphemes: a grapheme (an emoji with its
 * modifiers, a letter with its accents) is never cut. With `numbering`, each part ends with " n/N" and the suffix
 * counts toward `max`. The caller decides what too many parts means (more than 30 gives 275). Shared by the service
 * (what it sends) and the demo composer (its preview before the service's rendition arrives).
 */
import type { TextUnit } from './capabilities.js';
import { segmentText } from './segments.js';
import { measureText } from './text-length.js';

export interface ThreadSplitOptions {
  /** Append " 1/3", " 2/3", … to each part (only when there is more than one part). */
  numbering?: boolean;
}


export function splitIntoThread(text: string, max: number, unit: TextUnit, options: ThreadSplitOptions = {}): string[] {
  if (!Number.isInteger(max) || max < 1) throw new RangeError(`thread part limit must be a positive integer, got ${max}`);
  const trimmed = text.trim();
  if (measureText(trimmed, unit) <= max) return [trimmed];
  if (!options.numbering) return pack(trimmed, max, unit);
  // The suffix length depends on the part count, which depends on the room left: settle it by growing the guess.
  let guess = pack(trimmed, max, unit).length;
  for (;;) {
    const suffixRoom = measureText(` ${guess}/${guess}`, unit);
    if (suffixRoom >= max) throw new RangeError(`thread part limit ${max} leaves no room for numbering`);
    const parts = pack(trimmed, max - suffixRoom, unit);
    if (String(parts.length).length <= String(guess).length) {
      return parts.map((part, index) => `${part} ${index + 1}/${parts.length}`);
    }
    guess = parts.length;
  }
}

/**
 * Greedy packing: each part takes as many pieces as fit, trying sentences, then words, then graphemes. A part's
 * length is summed piece by piece (measuring the growing part again for every piece made a 100,000-character text
 * take minutes). The sum is exact for chars and bytes and never too small for graphemes (joins only merge), but a
 * twitter URL can form across pieces; so each finished part is measured once more and, if over, packed again exactly.
 */
function pack(text: string, max: number, unit: TextUnit): string[] {
  return packPieces(text, max, unit, false).flatMap((part) =>
    measureText(part, unit) <= max ? [part] : packPieces(part, max, unit, true),
  );
}

function packPieces(text: string, max: number, unit: TextUnit, exact: boolean): string[] {
  const parts: string[] = [];
  let current = '';
  let currentLength = 0;
  const fitsWith = (piece: string) =>
    exact
      ? measureText((current + piece).trim(), unit) <= max
      : currentLength + measureText(piece.trimEnd(), unit) <= max;
  const flush = () => {
    const part = current.trim();
    if (part) parts.push(part);
    current = '';
    currentLength = 0;
  };
  const add = (piece: string, finer: ((piece: string) => string[]) | null) => {
    if (current.trim() === '') {
      current = '';
      currentLength = 0;
      piece = piece.trimStart();
      if (piece === '') return;
    }
    if (fitsWith(piece)) {
      current += piece;
      currentLength += exact ? 0 : measureText(piece, unit);
      return;
    }
    if (current !== '') {
      flush();
      add(piece, finer);
      return;
    }
    if (!finer) throw new RangeError(`a single grapheme is longer than the thread part limit ${max}`);
    for (const smaller of finer(piece)) add(smaller, finerThan(finer));
  };
  for (const sentence of segmentText(text, 'sentence')) add(sentence, words);
  flush();
  return parts;
}

function words(text: string): string[] {
  // Whitespace-separated words keep a URL whole; a run without spaces (CJK) falls back to the word segmenter.
  const pieces = text.match(/\S+\s*|\s+/gu) ?? [];
  return pieces.length > 1 ? pieces : segmentText(text, 'word');
}

function graphemes(text: string): string[] {
  return segmentText(text, 'grapheme');
}

function finerThan(level: (piece: string) => string[]): ((piece: string) => string[]) | null {
  if (level === words) return wordsBySegmenter;
  if (level === wordsBySegmenter) return graphemes;
  return null;
}

function wordsBySegmenter(text: string): string[] {
  return segmentText(text, 'word');
}
