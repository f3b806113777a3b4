import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addHashtags } from '../../src/publishing/rules/auto-hashtag.js';

const text = 'Our spring collection is here. Visit the shop this weekend: the spring sale ends Sunday.';

describe('addHashtags', () => {
  it('tags the two best keywords in place by default: most frequent first, then longest', () => {
    assert.equal(
      addHashtags(text),
      'Our #spring #collection is here. Visit the shop this weekend: the spring sale ends Sunday.',
    );
  });

  it('appends them at the end when asked, up to max', () => {
    assert.equal(addHashtags(text, { max: 3, position: 'end' }), `${text} #spring #collection #weekend`);
  });

  it('is deterministic: the same text always gets the same hashtags', () => {
    const first = addHashtags(text, { max: 5 });
    for (let i = 0; i < 5; i++) assert.equal(addHashtags(text, { max: 5 }), first);
  });

  it('skips stop words, short words, numbers, URLs, mentions, markup and words already tagged', () => {
    const out = addHashtags('The <b>offer</b> for 2026 at https://deals.example/offer by @offer is out #offer. Big day', {
      max: 10,
      position: 'end',
    });
    assert.equal(out, 'The <b>offer</b> for 2026 at https://deals.example/offer by @offer is out #offer. Big day');
  });

  it('keeps a text without keywords unchanged', () => {
    assert.equal(addHashtags('', { max: 3 }), '');
    assert.equal(addHashtags('it is what it is', { max: 3 }), 'it is what it is');
  });

  it('keeps max within 1-10', () => {
    const words = 'alpha bravo charlie delta echoes foxtrot golfer hotel india juliet kilo lima mike november';
    const count = (s: string) => (s.match(/#/g) ?? []).length;
    assert.equal(count(addHashtags(words, { max: 50, position: 'end' })), 10);
    assert.equal(count(addHashtags(words, { max: 0, position: 'end' })), 1);
    assert.equal(count(addHashtags(words, { position: 'end' })), 2);
  });

  it('handles words of other scripts', () => {
    assert.equal(addHashtags('Café Münster öffnet morgen früh', { max: 1, position: 'end' }), 'Café Münster öffnet morgen früh #Münster');
  });
});
