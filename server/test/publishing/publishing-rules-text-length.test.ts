import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NETWORKS } from '@social-link-kit/protocol';
import { PUBLISHING_CAPABILITIES } from '@social-link-kit/protocol/publishing/capabilities.js';
import { measureText } from '../../src/networks/text/text-length.js';

describe('measureText', () => {
  it('counts code points for chars, so an astral emoji is one, not two UTF-16 units', () => {
    assert.equal(measureText('hello', 'chars'), 5);
    assert.equal(measureText('a😀b', 'chars'), 3);
  });

  it('counts user-perceived characters for graphemes (ZWJ family, flag, skin tone, combining accent)', () => {
    assert.equal(measureText('👨‍👩‍👧', 'graphemes'), 1);
    assert.equal(measureText('🇫🇷🇩🇪', 'graphemes'), 2);
    assert.equal(measureText('👍🏽', 'graphemes'), 1);
    assert.equal(measureText('e\u0301', 'graphemes'), 1);
    assert.equal(measureText('e\u0301', 'chars'), 2);
  });

  it('counts UTF-8 bytes for bytes', () => {
    assert.equal(measureText('abc', 'bytes'), 3);
    assert.equal(measureText('é', 'bytes'), 2);
    assert.equal(measureText('日', 'bytes'), 3);
    assert.equal(measureText('😀', 'bytes'), 4);
  });

  it('weighs twitter text: Latin 1, CJK 2, any emoji sequence 2, every URL 23 whatever its length', () => {
    assert.equal(measureText('hello world', 'weighted'), 11);
    assert.equal(measureText('日本語', 'weighted'), 6);
    assert.equal(measureText('👨‍👩‍👧', 'weighted'), 2);
    assert.equal(measureText('🇫🇷', 'weighted'), 2);
    assert.equal(measureText(`see https://example.com/${'a'.repeat(200)}`, 'weighted'), 4 + 23);
    assert.equal(measureText('https://a.co', 'weighted'), 23);
    // trailing punctuation is not part of the link
    assert.equal(measureText('go www.example.com.', 'weighted'), 3 + 23 + 1);
    // composed and decomposed accents weigh the same (NFC first)
    assert.equal(measureText('e\u0301', 'weighted'), measureText('é', 'weighted'));
  });

  it('puts a 280-weight tweet at the limit and one more CJK character over it', () => {
    const max = PUBLISHING_CAPABILITIES.twitter.text.max;
    assert.equal(measureText('a'.repeat(280), 'weighted'), max);
    assert.equal(measureText('日'.repeat(140), 'weighted'), max);
    assert.ok(measureText('日'.repeat(141), 'weighted') > max);
  });

  it('has a capability entry with a known unit for every network', () => {
    for (const network of NETWORKS) {
      const { max, unit } = PUBLISHING_CAPABILITIES[network].text;
      assert.ok(max > 0, network);
      assert.equal(typeof measureText('x', unit), 'number', network);
    }
  });
});
