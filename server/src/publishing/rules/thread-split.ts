/**
 * @module
 * Splits a text too long for one post into thread parts, each within `max` in the network's unit. Cuts fall, in
 * order of preference, after a sentence, then between words, then between graphemes: a grapheme (an emoji with its
 * modifiers, a letter with its accents) is never cut. With `numbering`, each part ends with " n/N" and the suffix
 * counts toward `max`. The caller decides what too many parts means (more than 30 gives 275).
 */
import type { TextUnit } from '../../../../src/protocol/publishing/capabilities.js';
import { measureText } from './text-length.js';

export interface ThreadSplitOptions {
  /** Append " 1/3", " 2/3", … to each part (only when there is more than one part). */
  numbering?: boolean;
}

const sentenceSegmenter = new Intl.Segmenter(undefined, { granularity: 'sentence' });
const wordSegmenter = new Intl.Segmenter(undefined, { granularity: 'word' });
const graphemeSegmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

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

/** Greedy packing: each part takes as many pieces as fit, trying sentences, then words, then graphemes. */
function pack(text: string, max: number, unit: TextUnit): string[] {
  const parts: string[] = [];
  let current = '';
  const fits = (candidate: string) => measureText(candidate.trim(), unit) <= max;
  const flush = () => {
    const part = current.trim();
    if (part) parts.push(part);
    current = '';
  };
  const add = (piece: string, finer: ((piece: string) => string[]) | null) => {
    if (fits(current + piece)) {
      current += piece;
      return;
    }
    flush();
    if (fits(piece)) {
      current = piece.trimStart();
      return;
    }
    if (!finer) throw new RangeError(`a single grapheme is longer than the thread part limit ${max}`);
    for (const smaller of finer(piece)) add(smaller, finerThan(finer));
  };
  for (const sentence of segments(text, sentenceSegmenter)) add(sentence, words);
  flush();
  return parts;
}

function words(text: string): string[] {
  // Whitespace-separated words keep a URL whole; a run without spaces (CJK) falls back to the word segmenter.
  const pieces = text.match(/\S+\s*|\s+/gu) ?? [];
  return pieces.length > 1 ? pieces : segments(text, wordSegmenter);
}

function graphemes(text: string): string[] {
  return segments(text, graphemeSegmenter);
}

function finerThan(level: (piece: string) => string[]): ((piece: string) => string[]) | null {
  if (level === words) return wordsBySegmenter;
  if (level === wordsBySegmenter) return graphemes;
  return null;
}

function wordsBySegmenter(text: string): string[] {
  return segments(text, wordSegmenter);
}

function segments(text: string, segmenter: Intl.Segmenter): string[] {
  return Array.from(segmenter.segment(text), (s) => s.segment);
}
