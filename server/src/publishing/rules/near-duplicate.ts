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
 * (stored duplicate keys). This text's trigrams are built once; each candidate's are read off its text one by one
 * (`atLeastThreshold`), without building or sorting its set, and the reading stops as soon as the threshold is out
 * of reach: most candidates share a band by chance and are turned away after a third of their text (issue 31).
 */
export function nearDuplicateMatcher(key: string): (otherKey: string) => boolean {
  const own = key.length >= MIN_NEAR_LENGTH ? new OwnTrigrams(trigramsOf(key)) : null;
  return (other) => {
    if (!key || !other) return false;
    if (key === other) return true;
    if (!own || other.length < MIN_NEAR_LENGTH) return false;
    return own.similarEnough(other);
  };
}

/** The other text's code points, space-padded as `trigrams` pads them: reused by every comparison. */
let codes = new Uint32Array(1_024);

/**
 * One text's trigram set in an open-addressing hash table (a slot per trigram, found in one or two probes), and a
 * second table for the other text's trigrams that this one lacks; both are reused by each comparison (a comparison
 * number marks which slots it has filled, so nothing is cleared between comparisons).
 */
class OwnTrigrams {
  readonly #size: number;
  readonly #mask: number;
  readonly #grams: Float64Array;
  readonly #filled: Uint8Array;
  /** Own trigram's slot: the comparison that met it last. */
  readonly #met: Uint32Array;
  readonly #unsharedGrams: Float64Array;
  readonly #unsharedMark: Uint32Array;
  #comparison = 0;

  constructor(grams: Float64Array) {
    this.#size = grams.length;
    // Half full at most; the unshared table never holds more than (1 - T) / T of own's size plus three (below).
    const slots = 2 ** Math.ceil(Math.log2(2 * Math.max(grams.length, 4)));
    this.#mask = slots - 1;
    this.#grams = new Float64Array(slots);
    this.#filled = new Uint8Array(slots);
    this.#met = new Uint32Array(slots);
    this.#unsharedGrams = new Float64Array(slots);
    this.#unsharedMark = new Uint32Array(slots);
    for (const gram of grams) {
      let slot = slotOf(gram, this.#mask);
      while (this.#filled[slot] === 1) slot = (slot + 1) & this.#mask;
      this.#filled[slot] = 1;
      this.#grams[slot] = gram;
    }
  }

  /**
   * Whether `jaccard(own, trigrams(other)) >= NEAR_DUPLICATE_THRESHOLD`, the same two integers divided the same
   * way, so the same answer. Jaccard is shared / (|own| + unshared), unshared being the other's distinct trigrams
   * that own lacks. Both only grow as the other's trigrams are read, and shared can grow at most by the trigrams
   * still unread and to |own|: the reading stops once even that best case falls a whole trigram short (a margin no
   * rounding can cross). Unrelated texts that share a band by chance stop after a third to half of their text.
   */
  similarEnough(other: string): boolean {
    let length = 0;
    if (codes.length < other.length + 2) codes = new Uint32Array(2 * (other.length + 2));
    codes[length++] = 0x20;
    for (let i = 0; i < other.length; i++) {
      const code = codePointAt(other, i);
      if (code >= BMP) i++;
      codes[length++] = code;
    }
    codes[length++] = 0x20;
    // Wraps after 2^32 - 1 comparisons of one matcher; a matcher serves one post's lookup.
    const comparison = ++this.#comparison;
    const size = this.#size;
    const mask = this.#mask;
    let shared = 0;
    let unshared = 0;
    const count = length - 2;
    for (let i = 0; i < count; i++) {
      const gram = packTrigram(codes[i]!, codes[i + 1]!, codes[i + 2]!);
      let slot = slotOf(gram, mask);
      while (this.#filled[slot] === 1 && this.#grams[slot] !== gram) slot = (slot + 1) & mask;
      if (this.#filled[slot] === 1) {
        if (this.#met[slot] !== comparison) {
          this.#met[slot] = comparison;
          shared++;
        }
      } else {
        slot = slotOf(gram, mask);
        while (this.#unsharedMark[slot] === comparison && this.#unsharedGrams[slot] !== gram) slot = (slot + 1) & mask;
        if (this.#unsharedMark[slot] !== comparison) {
          this.#unsharedMark[slot] = comparison;
          this.#unsharedGrams[slot] = gram;
          unshared++;
        }
      }
      const bestShared = Math.min(size, shared + count - 1 - i);
      if (bestShared + 1 <= NEAR_DUPLICATE_THRESHOLD * (size + unshared)) return false;
    }
    return shared / (size + unshared) >= NEAR_DUPLICATE_THRESHOLD;
  }
}

/** A packed trigram's first slot: its two 32-bit halves mixed (murmur3's finaliser). */
function slotOf(gram: number, mask: number): number {
  let h = Math.imul((gram >>> 0) ^ Math.imul(Math.floor(gram / 0x1_0000_0000), 0x9e3779b1), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) & mask;
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

/** A new post's own set serves its bands (the lookup's, then the insert's) and its matcher: the few latest keys. */
const TRIGRAM_CACHE_SIZE = 256;
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
 * `text.codePointAt(i)`, written out: optimised `codePointAt` in Node 24 (V8 13.6) reads past the end of a sliced
 * string, so a lead surrogate cut off at a slice's end was read with the trail surrogate that followed it in the
 * parent string (a matcher answered "near" where the similarity said not: publishing-rules-near-duplicate.test.ts
 * caught it under load). A lone surrogate counts as itself, as `Array.from` counts it in `trigrams`.
 */
function codePointAt(text: string, i: number): number {
  const lead = text.charCodeAt(i);
  if (lead < 0xd800 || lead > 0xdbff || i + 1 >= text.length) return lead;
  const trail = text.charCodeAt(i + 1);
  return trail < 0xdc00 || trail > 0xdfff ? lead : (lead - 0xd800) * 0x400 + (trail - 0xdc00) + BMP;
}

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

/**
 * How many distinct trigrams `key` (an already normalised text) has. Jaccard similarity is at most the smaller set's
 * size over the larger's, so a near duplicate's count lies in `nearTrigramCounts` of this one: the index stores it
 * beside each band and skips texts far longer or shorter without reading them (a length filter, as set-similarity
 * joins use; it never turns away a text the similarity test would accept).
 */
export function trigramCount(key: string): number {
  return trigramsOf(key).length;
}

/**
 * The trigram counts a near duplicate of a text with `count` can have: within NEAR_DUPLICATE_THRESHOLD of it either
 * way. Rounded outwards: a count just outside is below the threshold by at least one trigram in `count`, far more
 * than a division's rounding.
 */
export function nearTrigramCounts(count: number): { min: number; max: number } {
  return { min: Math.floor(count * NEAR_DUPLICATE_THRESHOLD), max: Math.ceil(count / NEAR_DUPLICATE_THRESHOLD) };
}

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
