import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  isNearDuplicate,
  nearDuplicateMatcher,
  nearTrigramCounts,
  NEAR_DUPLICATE_THRESHOLD,
  normalizeForDuplicates,
  trigramCount,
  trigramSimilarity,
} from '../../src/publishing/rules/near-duplicate.js';
import { renderRichText } from '../../src/publishing/rules/rich-text.js';
import { applyLineBreaks } from '../../src/publishing/rules/line-breaks.js';

const base = 'Our spring collection is finally here. Come by the shop this weekend and say hello to the team.';
const similarity = (a: string, b: string) => trigramSimilarity(normalizeForDuplicates(a), normalizeForDuplicates(b));

describe('normalizeForDuplicates', () => {
  it('folds styling, tags, case, whitespace, invisible separators, URLs, repeated marks and hashtag order', () => {
    assert.equal(
      normalizeForDuplicates('<b>Big</b> 𝗦𝗔𝗟𝗘 today!!! #b #A https://x.co/abc?utm=1\u2063\nSee   you'),
      'big sale today! see you #a #b',
    );
  });

  it('is idempotent, so stored keys can be compared with isNearDuplicate again', () => {
    for (const text of [base, '<b>Big</b> 𝗦𝗔𝗟𝗘!!! #b #A https://x.co/a\nSee', 'a!#x!**!** `c`', 'x<sup>2</sup> <b>lone']) {
      const once = normalizeForDuplicates(text);
      assert.equal(normalizeForDuplicates(once), once, text);
      assert.ok(isNearDuplicate(once, text));
    }
  });

  it('makes a text and its rendered form on any network equal', () => {
    const text = 'Launch <b>day</b> for <i>v2</i>!\nDetails: https://example.com/v2 #launch';
    for (const network of ['twitter', 'reddit', 'instagram', 'gmb'] as const) {
      const rendered = applyLineBreaks(renderRichText(text, network), network);
      assert.equal(normalizeForDuplicates(rendered), normalizeForDuplicates(text), network);
    }
  });
});

describe('isNearDuplicate', () => {
  it('matches exact and cosmetic variants', () => {
    assert.ok(isNearDuplicate(base, base));
    assert.ok(isNearDuplicate(base, base.toUpperCase()));
    assert.ok(isNearDuplicate(`${base} https://a.example/1`, `${base} https://b.example/2`));
    assert.ok(isNearDuplicate(`#one #two ${base}`, `${base} #two #one`));
    assert.ok(isNearDuplicate(base, renderRichText(`<b>${base}</b>`, 'twitter')));
  });

  it('matches a text with a small edit and not one with a larger edit (both sides of the threshold)', () => {
    const near = base.replace('hello', 'hi');
    const far = base.replace('this weekend', 'on saturday');
    assert.ok(similarity(base, near) >= NEAR_DUPLICATE_THRESHOLD);
    assert.equal(isNearDuplicate(base, near), true);
    assert.ok(similarity(base, far) < NEAR_DUPLICATE_THRESHOLD);
    assert.equal(isNearDuplicate(base, far), false);
  });

  it('decides exactly at the threshold over a range of edits', () => {
    let seen = { near: 0, far: 0 };
    const words = 'bring a friend along and enjoy free coffee while you browse the new arrivals'.split(' ');
    for (let extra = 1; extra <= words.length; extra++) {
      const edited = `${base} ${words.slice(0, extra).join(' ')}`;
      const expected = similarity(base, edited) >= NEAR_DUPLICATE_THRESHOLD;
      assert.equal(isNearDuplicate(base, edited), expected, String(extra));
      seen = expected ? { ...seen, near: seen.near + 1 } : { ...seen, far: seen.far + 1 };
    }
    assert.ok(seen.near > 0 && seen.far > 0, JSON.stringify(seen));
  });

  it('treats short texts as duplicates only when equal, and empty texts never', () => {
    assert.ok(isNearDuplicate('Hi all', 'hi   ALL'));
    assert.equal(isNearDuplicate('Hi all', 'Hi al'), false);
    assert.equal(isNearDuplicate('', ''), false);
    assert.equal(isNearDuplicate('https://a.example', 'https://b.example'), false);
  });

  it('keeps unrelated posts apart', () => {
    assert.equal(isNearDuplicate(base, 'Quarterly results are out: revenue grew twelve percent.'), false);
  });
});

describe('nearDuplicateMatcher (one post against many stored keys)', () => {
  it('answers exactly as the similarity does, emoji included, for pairs near and far from the threshold', () => {
    const pieces = ['spring', 'sale', 'today', 'team', '🌷', '🎉', 'naïve', 'café', 'shop', 'hello', 'weekend'];
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const sentence = () => Array.from({ length: 12 }, () => pieces[Math.floor(random() * pieces.length)]).join(' ');
    let near = 0;
    for (let i = 0; i < 300; i++) {
      const key = normalizeForDuplicates(sentence());
      // A copy with one to six characters changed: some stay above the threshold, some fall below it.
      const chars = Array.from(key);
      for (let change = 0; change < 1 + (i % 6); change++) chars[Math.floor(random() * chars.length)] = pieces[i % pieces.length]![0]!;
      const other = chars.join('');
      const expected = trigramSimilarity(key, other) >= NEAR_DUPLICATE_THRESHOLD;
      assert.equal(nearDuplicateMatcher(key)(other), expected, `${key} ~ ${other}`);
      assert.equal(nearDuplicateMatcher(other)(key), expected, 'symmetric, whichever side is cached');
      if (expected) near++;
    }
    assert.ok(near > 20 && near < 280, `both answers occur (${near} near of 300)`);
  });

  it('answers as the similarity does for texts of other lengths, repeated trigrams, astral and lone surrogate characters', () => {
    // The matcher reads a candidate's trigrams one by one and stops once the threshold is out of reach: these pairs
    // stop at every point (longer or shorter, repeating, appended or cut) and some stay just above the threshold.
    const pieces = ['la', 'lala', 'sale', ' ', '🌷', '\ud83c', 'é', 'shop', 'ab', 'x', 'team hello'];
    let seed = 11;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const text = (words: number) => Array.from({ length: words }, () => pieces[Math.floor(random() * pieces.length)]).join('');
    let near = 0;
    let boundary = 0;
    for (let i = 0; i < 3_000; i++) {
      const key = text(4 + Math.floor(random() * 30));
      const edits = [() => key + text(1 + (i % 5)), () => key.slice(0, key.length - 1 - (i % 7)), () => text(2) + key, () => text(4 + (i % 30))];
      const other = edits[i % edits.length]!();
      if (key.length < 8 || other.length < 8 || key === other) continue;
      const expected = trigramSimilarity(key, other) >= NEAR_DUPLICATE_THRESHOLD;
      assert.equal(nearDuplicateMatcher(key)(other), expected, `${key} ~ ${other}`);
      assert.equal(nearDuplicateMatcher(other)(key), expected, `${other} ~ ${key}`);
      if (expected) near++;
      // The index's length filter never turns a near pair away (either side may be the new post).
      const { min, max } = nearTrigramCounts(trigramCount(key));
      if (expected) assert.ok(trigramCount(other) >= min && trigramCount(other) <= max, `${key} ~ ${other}`);
      if (expected) boundary = Math.max(boundary, Math.abs(trigramCount(other) - trigramCount(key)));
    }
    assert.ok(near > 100, `near pairs occur (${near})`);
    assert.ok(boundary >= 2, `near pairs whose counts differ occur (${boundary})`);
  });
});
