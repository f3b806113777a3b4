import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_THREAD_PARTS } from '@social-link-kit/protocol/publishing/capabilities.js';
import { measureText } from '../../src/networks/text/text-length.js';
import { splitIntoThread } from '../../src/networks/text/thread-split.js';

const graphemes = (text: string) => Array.from(new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text), (s) => s.segment);

describe('splitIntoThread', () => {
  it('returns a text that fits as one part', () => {
    assert.deepEqual(splitIntoThread('  short  ', 280, 'weighted'), ['short']);
  });

  it('cuts after sentences when they fit', () => {
    const parts = splitIntoThread('First sentence here. Second one is here. Third.', 25, 'chars');
    assert.deepEqual(parts, ['First sentence here.', 'Second one is here.', 'Third.']);
  });

  it('cuts between words when a sentence is too long, keeping every word and URL whole', () => {
    const text = 'alpha beta gamma delta https://example.com/a-long-path epsilon zeta eta theta';
    const parts = splitIntoThread(text, 40, 'weighted');
    assert.ok(parts.length > 1);
    for (const part of parts) assert.ok(measureText(part, 'weighted') <= 40, part);
    assert.equal(parts.join(' '), text);
    assert.ok(parts.some((part) => part.includes('https://example.com/a-long-path')));
  });

  it('never cuts a grapheme, even in text without spaces', () => {
    const family = '👨‍👩‍👧';
    const parts = splitIntoThread(family.repeat(7), 3, 'graphemes');
    assert.deepEqual(parts, [family.repeat(3), family.repeat(3), family]);
    const accented = 'e\u0301'.repeat(9);
    for (const part of splitIntoThread(accented, 4, 'chars')) {
      assert.ok(graphemes(part).every((g) => g === 'e\u0301'), JSON.stringify(part));
    }
  });

  it('splits CJK text within the weighted limit and loses nothing', () => {
    const text = '日本語のテキストはスペースがありません。とても長い文章です。';
    const parts = splitIntoThread(text, 10, 'weighted');
    for (const part of parts) assert.ok(measureText(part, 'weighted') <= 10, part);
    assert.equal(parts.join(''), text);
  });

  it('numbers the parts when asked, counting the suffix toward the limit', () => {
    const text = Array.from({ length: 30 }, (_, i) => `Sentence number ${i}.`).join(' ');
    const parts = splitIntoThread(text, 30, 'chars', { numbering: true });
    assert.ok(parts.length >= 10);
    parts.forEach((part, index) => {
      assert.ok(part.endsWith(` ${index + 1}/${parts.length}`), part);
      assert.ok(measureText(part, 'chars') <= 30, part);
    });
    assert.deepEqual(splitIntoThread('fits', 30, 'chars', { numbering: true }), ['fits']);
  });

  it('gives more than 30 parts for a text the caller must refuse with 275', () => {
    const parts = splitIntoThread('word '.repeat(2_000), 275, 'weighted');
    assert.ok(parts.length > MAX_THREAD_PARTS);
    const fitting = splitIntoThread('word '.repeat(1_500), 275, 'weighted');
    assert.ok(fitting.length <= MAX_THREAD_PARTS, String(fitting.length));
  });

  it('refuses a limit that cannot hold anything', () => {
    assert.throws(() => splitIntoThread('abc', 0, 'chars'), RangeError);
    assert.throws(() => splitIntoThread('😀😀', 1, 'weighted'), RangeError);
  });
});
