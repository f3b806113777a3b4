import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { segmentText } from '../../src/networks/text/segments.js';

const onePass = (text: string, granularity: 'grapheme' | 'word' | 'sentence') =>
  Array.from(new Intl.Segmenter(undefined, { granularity }).segment(text), (s) => s.segment);

// Clusters that must not be cut: ZWJ families, flags (regional indicator pairs), skin tones, combining marks,
// CRLF, keycaps, Hangul jamo, and a long run of combining marks longer than a small window.
const tricky = ['👨‍👩‍👧‍👦', '🇫🇷🇩🇪🇯🇵', '👍🏽', 'e\u0301\u0302', '\r\n', '#️⃣', '\u1100\u1161\u11a8', `a${'\u0301'.repeat(40)}`, '日本', 'word ', '. '];

describe('segmentText', () => {
  it('gives exactly the graphemes of one pass, whatever the window', () => {
    let text = '';
    for (let i = 0; i < 400; i++) text += tricky[(i * 7) % tricky.length];
    for (const window of [3, 7, 16, 64, 1_024]) assert.deepEqual(segmentText(text, 'grapheme', window), onePass(text, 'grapheme'), String(window));
  });

  it('loses and adds nothing for words and sentences', () => {
    const text = 'First sentence here. Second one, with words! Third? 日本語の文です。'.repeat(50);
    for (const granularity of ['word', 'sentence'] as const) {
      const pieces = segmentText(text, granularity, 40);
      assert.equal(pieces.join(''), text);
      assert.deepEqual(pieces, onePass(text, granularity), granularity);
    }
  });

  it('handles a segment longer than the window and the empty text', () => {
    const long = 'a'.repeat(5_000);
    assert.deepEqual(segmentText(long, 'word', 16), [long]);
    assert.deepEqual(segmentText('', 'grapheme'), []);
  });

  it('segments a 100,000-character text (the longest post) in linear time', () => {
    // Not a timing assertion: a quadratic walk of this text takes minutes, which the test runner's timeout catches.
    assert.equal(segmentText('日'.repeat(100_000), 'grapheme').length, 100_000);
    assert.equal(segmentText('word '.repeat(20_000), 'word').length, 40_000);
  });
});
