/**
 * @module
 * Duplicate content (spec 4.9 rule 4, code 137). Two texts are compared after `normalizeForDuplicates`, which drops
 * what does not change what a reader sees as "the same post":
 * - rich-text tags, and Unicode styling folded back to ASCII (NFKC turns 𝗯𝗼𝗹𝗱 and x² into bold and x2);
 * - letter case, invisible separators and zero-width characters, and the amount of whitespace;
 * - URLs (a post re-sent with another tracking link is the same post);
 * - the order of hashtags (they are moved, sorted, to the end);
 * - repeated punctuation or emoji ("launch!!!" is "launch!"), and markdown emphasis marks (`*`, `` ` ``).
 *
 * "Near" means: the sets of character trigrams of the two normalised texts have a Jaccard similarity of at least
 * NEAR_DUPLICATE_THRESHOLD (0.85). For a 100-character post that is roughly up to five changed characters; for a
 * short post a single changed word is already "different". Texts shorter than MIN_NEAR_LENGTH after normalising
 * match only when equal. Two texts empty after normalising (media-only posts) are never duplicates by text.
 */
import { stripRichText } from './rich-text.js';
import { findUrls } from './text-length.js';

export const NEAR_DUPLICATE_THRESHOLD = 0.85;
export const MIN_NEAR_LENGTH = 8;

const INVISIBLE = /[\u200b-\u200d\u2060-\u2064\ufeff]/gu;
const HASHTAG = /#[\p{L}\p{N}_]+/gu;
const REPEATED_MARK = /([\p{P}\p{S}])\1+/gu;
const MARKDOWN_MARKS = /[*`]+/gu;

export function normalizeForDuplicates(text: string): string {
  let plain = stripRichText(text).normalize('NFKC').replace(INVISIBLE, '');
  plain = removeUrls(plain).toLowerCase();
  const hashtags = [...new Set(plain.match(HASHTAG) ?? [])].sort();
  plain = plain.replace(HASHTAG, ' ').replace(MARKDOWN_MARKS, '').replace(REPEATED_MARK, '$1');
  return [plain, ...hashtags].join(' ').replace(/\s+/gu, ' ').trim();
}

export function isNearDuplicate(a: string, b: string): boolean {
  const left = normalizeForDuplicates(a);
  const right = normalizeForDuplicates(b);
  if (!left || !right) return false;
  if (left === right) return true;
  if (Math.min(left.length, right.length) < MIN_NEAR_LENGTH) return false;
  return trigramSimilarity(left, right) >= NEAR_DUPLICATE_THRESHOLD;
}

/** Jaccard similarity of the character trigram sets of two (already normalised) texts, 0 to 1. */
export function trigramSimilarity(a: string, b: string): number {
  const left = trigrams(a);
  const right = trigrams(b);
  let shared = 0;
  for (const gram of left) if (right.has(gram)) shared++;
  const union = left.size + right.size - shared;
  return union === 0 ? 1 : shared / union;
}

function trigrams(text: string): Set<string> {
  const chars = Array.from(` ${text} `);
  const grams = new Set<string>();
  for (let i = 0; i + 3 <= chars.length; i++) grams.add(chars.slice(i, i + 3).join(''));
  return grams;
}

function removeUrls(text: string): string {
  let out = '';
  let position = 0;
  for (const url of findUrls(text)) {
    out += `${text.slice(position, url.start)} `;
    position = url.end;
  }
  return out + text.slice(position);
}
