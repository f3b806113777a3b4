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
import { findUrls } from '../../networks/text/text-length.js';

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
  return nearDuplicateMatcher(normalizeForDuplicates(a))(normalizeForDuplicates(b));
}

/**
 * For comparing one post with many (every candidate in the 48-hour window): both sides are already normalised
 * (stored duplicate keys); this text's trigrams are built once, and each candidate's come from a small cache (the
 * same keys are compared again by every post of the window).
 */
export function nearDuplicateMatcher(key: string): (otherKey: string) => boolean {
  const own = key.length >= MIN_NEAR_LENGTH ? trigramsOf(key) : null;
  return (other) => {
    if (!key || !other) return false;
    if (key === other) return true;
    if (!own || other.length < MIN_NEAR_LENGTH) return false;
    const theirs = trigramsOf(other);
    // Jaccard is at most the ratio of the two set sizes (shared <= smaller, union >= larger): most pairs stop here.
    if (Math.min(own.length, theirs.length) < NEAR_DUPLICATE_THRESHOLD * Math.max(own.length, theirs.length)) return false;
    return jaccard(own, theirs) >= NEAR_DUPLICATE_THRESHOLD;
  };
}

/** Jaccard similarity of the character trigram sets of two (already normalised) texts, 0 to 1. */
export function trigramSimilarity(a: string, b: string): number {
  return jaccard(trigrams(a), trigrams(b));
}

/** Both sets sorted: one merge pass counts what they share. */
function jaccard(left: Float64Array, right: Float64Array): number {
  let shared = 0;
  for (let i = 0, j = 0; i < left.length && j < right.length; ) {
    if (left[i] === right[j]) {
      shared++;
      i++;
      j++;
    } else if (left[i]! < right[j]!) i++;
    else j++;
  }
  const union = left.length + right.length - shared;
  return union === 0 ? 1 : shared / union;
}

const TRIGRAM_CACHE_SIZE = 2_048;
const trigramCache = new Map<string, Float64Array>();

function trigramsOf(key: string): Float64Array {
  let grams = trigramCache.get(key);
  if (!grams) {
    grams = trigrams(key);
    // Oldest first out: a bounded memo (about 2 KB per key), not a store.
    if (trigramCache.size >= TRIGRAM_CACHE_SIZE) trigramCache.delete(trigramCache.keys().next().value!);
    trigramCache.set(key, grams);
  }
  return grams;
}

/** The set of a text's character trigrams as sorted, distinct numbers (cheap to build, compare and keep). */
function trigrams(text: string): Float64Array {
  const codes = Array.from(` ${text} `, (char) => char.codePointAt(0)!);
  const grams = new Float64Array(Math.max(0, codes.length - 2));
  for (let i = 0; i < grams.length; i++) grams[i] = packTrigram(codes[i]!, codes[i + 1]!, codes[i + 2]!);
  grams.sort();
  let distinct = 0;
  for (let i = 0; i < grams.length; i++) if (distinct === 0 || grams[i] !== grams[distinct - 1]) grams[distinct++] = grams[i]!;
  return grams.subarray(0, distinct);
}

const BMP = 0x1_0000;

/**
 * Three characters as one number: exact for characters of the Basic Multilingual Plane (16 bits each, 48 in all);
 * a trigram with an emoji or another astral character is hashed (32 bits) above that range.
 */
function packTrigram(a: number, b: number, c: number): number {
  if (a < BMP && b < BMP && c < BMP) return (a * BMP + b) * BMP + c;
  let hash = 0x811c9dc5;
  for (const code of [a, b, c]) hash = Math.imul(hash ^ code, 0x01000193) >>> 0;
  return BMP ** 3 + hash;
}

/** How a text's MinHash signature is cut into index keys: `bands` keys of `rows` minimum hashes each. */
export interface BandLayout {
  bands: number;
  rows: number;
}

/**
 * 10 bands of 4 (migration 24; 16 before): two texts at Jaccard similarity s share at least one band with
 * probability 1 - (1 - s^4)^10, which is 99.94 % at the 0.85 threshold and 99.998 % at 0.90 (1.6 % and 7.8 % of
 * pairs at 0.2 and 0.3, the candidates the similarity test then turns away). Each band is a row written with the
 * post, and each row dirties a page of its own: ten rows instead of sixteen is the accept's largest saving, for a
 * miss rate at the threshold of 6 in 10,000 instead of 7 in a million. publishing-duplicate-recall.test.ts holds the
 * index to the full scan on a corpus.
 */
export const NEAR_DUPLICATE_BANDS: BandLayout = { bands: 10, rows: 4 };

/** Fixed seeds: the bands of a text must be the same in every process and after every restart. */
const seeds = (count: number) => Array.from({ length: count }, (_, i) => Math.imul(i + 1, 0x9e3779b1) >>> 0);
let SEEDS = seeds(NEAR_DUPLICATE_BANDS.bands * NEAR_DUPLICATE_BANDS.rows);

/**
 * The index keys under which near duplicates of `key` (an already normalised text) are found (see
 * NEAR_DUPLICATE_BANDS for how many and what they find); each candidate is then confirmed by `nearDuplicateMatcher`.
 * A key is the band's number and its minimum hashes hashed into 53 bits (a safe integer, 8 bytes in either
 * database): two texts with the same minima in a band always get the same key, and different minima the same one
 * about once in 2^53, which only adds a candidate. Texts shorter than MIN_NEAR_LENGTH only match exactly, so they
 * have no bands. `layout` other than the default is for tests that show what a weaker index misses.
 */
export function duplicateBands(key: string, layout: BandLayout = NEAR_DUPLICATE_BANDS): number[] {
  if (key.length < MIN_NEAR_LENGTH) return [];
  if (layout !== NEAR_DUPLICATE_BANDS) return minHashBands(key, layout);
  // An accept computes them twice (the lookup, then the insert): kept for the few latest keys.
  let bands = bandCache.get(key);
  if (!bands) {
    bands = minHashBands(key, layout);
    if (bandCache.size >= BAND_CACHE_SIZE) bandCache.delete(bandCache.keys().next().value!);
    bandCache.set(key, bands);
  }
  return bands;
}

const BAND_CACHE_SIZE = 256;
const bandCache = new Map<string, number[]>();

function minHashBands(key: string, layout: BandLayout): number[] {
  const { bands, rows } = layout;
  if (SEEDS.length < bands * rows) SEEDS = seeds(bands * rows);
  const grams = trigramsOf(key);
  const minima = new Uint32Array(bands * rows).fill(0xffffffff);
  for (const gram of grams) {
    // The packed trigram (up to 2^49) as two 32-bit words, mixed with each seed (murmur3's finaliser).
    const low = gram % 0x1_0000_0000;
    const high = Math.floor(gram / 0x1_0000_0000);
    for (let i = 0; i < minima.length; i++) {
      let h = Math.imul(low ^ SEEDS[i]!, 0x85ebca6b) ^ high;
      h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
      h = (h ^ (h >>> 16)) >>> 0;
      if (h < minima[i]!) minima[i] = h;
    }
  }
  return Array.from({ length: bands }, (_, band) => {
    // Two independent 32-bit hashes of (band, its minima); 21 bits of one and 32 of the other make the key.
    let a = Math.imul(band + 1, 0x9e3779b1);
    let b = Math.imul(band + 1, 0x85ebca77) ^ 0x27d4eb2f;
    for (let i = band * rows; i < (band + 1) * rows; i++) {
      a = Math.imul(a ^ minima[i]!, 0xcc9e2d51);
      a = Math.imul((a << 15) | (a >>> 17), 0x1b873593);
      b = Math.imul(b ^ minima[i]!, 0x85ebca6b);
      b = Math.imul(b ^ (b >>> 13), 0xc2b2ae35);
    }
    a = Math.imul(a ^ (a >>> 16), 0x85ebca6b);
    b ^= b >>> 16;
    return (a >>> 11) * 0x1_0000_0000 + (b >>> 0);
  });
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
