/**
 * @module
 * Intl.Segmenter over long texts in windows. Node 20's segmenter slows down with the length of the string it walks
 * (a 40,000-character text took 0.6 s for graphemes, 100,000 took seconds), and a post may be 100,000 characters. So
 * each window of WINDOW characters is segmented alone, its last segment (perhaps cut by the window's end) is dropped,
 * and the next window starts where that segment started. Every boundary kept was decided with the text on both sides
 * of it inside the window, so graphemes come out exactly as from one pass; word and sentence boundaries, whose rules
 * may look further ahead, have at least a window of context, which is all the thread splitter needs.
 */

export type Granularity = 'grapheme' | 'word' | 'sentence';

const WINDOW = 1_024;
const segmenters: Record<Granularity, Intl.Segmenter> = {
  grapheme: new Intl.Segmenter(undefined, { granularity: 'grapheme' }),
  word: new Intl.Segmenter(undefined, { granularity: 'word' }),
  sentence: new Intl.Segmenter(undefined, { granularity: 'sentence' }),
};

export function segmentText(text: string, granularity: Granularity, window: number = WINDOW): string[] {
  const segmenter = segmenters[granularity];
  const out: string[] = [];
  let start = 0;
  let size = window;
  while (start < text.length) {
    let end = start + size;
    // Never cut a surrogate pair: a half code point would look like a boundary that is not one.
    if (isHighSurrogate(text.charCodeAt(end - 1))) end++;
    const pieces = Array.from(segmenter.segment(text.slice(start, end)), (s) => s.segment);
    if (end >= text.length) {
      out.push(...pieces);
      break;
    }
    if (pieces.length < 2) {
      // One segment fills the window (a very long word or cluster): look at a wider window.
      size *= 2;
      continue;
    }
    const last = pieces.pop() as string;
    out.push(...pieces);
    start = end - last.length;
    size = window;
  }
  return out;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
