import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NETWORKS } from '@social-link-kit/protocol';
import { PUBLISHING_CAPABILITIES } from '@social-link-kit/protocol/publishing/capabilities.js';
import { renderRichText, stripRichText } from '../../src/publishing/rules/rich-text.js';

describe('renderRichText', () => {
  it('styles b/strong bold, em/i italic, both nested bold italic, on unicode networks', () => {
    assert.equal(renderRichText('<b>Bold</b> <strong>9</strong>', 'twitter'), '𝗕𝗼𝗹𝗱 𝟵');
    assert.equal(renderRichText('<em>it</em> <i>Hi</i>', 'facebook'), '𝘪𝘵 𝘏𝘪');
    assert.equal(renderRichText('<b>a <i>b</i></b>', 'linkedin'), '𝗮 𝙗');
    assert.equal(renderRichText('<i><b>B</b></i>', 'instagram'), '𝘽');
  });

  it('renders samp monospace, var bold script, sub and sup with the forms Unicode has', () => {
    assert.equal(renderRichText('<samp>Ab7</samp>', 'telegram'), '𝙰𝚋𝟽');
    assert.equal(renderRichText('<var>xy</var>', 'telegram'), '𝔁𝔂');
    assert.equal(renderRichText('H<sub>2</sub>O', 'twitter'), 'H₂O');
    assert.equal(renderRichText('x<sup>(n+1)</sup>', 'twitter'), 'x⁽ⁿ⁺¹⁾');
    // q has no superscript form: it stays as written
    assert.equal(renderRichText('<sup>q2</sup>', 'twitter'), 'q²');
  });

  it('leaves non-letters, accented letters and other scripts unchanged inside styling', () => {
    assert.equal(renderRichText('<b>é, 日!</b>', 'twitter'), 'é, 日!');
  });

  it('keeps unknown tags and unpaired known tags as written', () => {
    assert.equal(renderRichText('<u>under</u> <b>lone', 'twitter'), '<u>under</u> <b>lone');
    assert.equal(renderRichText('a </i> b', 'twitter'), 'a </i> b');
    assert.equal(renderRichText('1 < 2 > 0', 'twitter'), '1 < 2 > 0');
  });

  it('accepts tags in any letter case', () => {
    assert.equal(renderRichText('<B>x</B>', 'twitter'), '𝘅');
  });

  it('writes reddit markdown instead of Unicode styling', () => {
    assert.equal(
      renderRichText('<b>bold <i>both</i></b> <samp>c</samp> x<sup>2</sup> H<sub>2</sub>O', 'reddit'),
      '**bold *both*** `c` x^(2) H2O',
    );
  });

  it('gives plain text without the tags to networks without rich text', () => {
    for (const network of NETWORKS.filter((n) => PUBLISHING_CAPABILITIES[n].richText === 'none')) {
      assert.equal(renderRichText('<b>bold</b> and <u>u</u>', network), 'bold and <u>u</u>', network);
    }
    assert.equal(stripRichText('<i>a</i><sup>2</sup>'), 'a2');
  });

  it('returns text without markup unchanged on every network', () => {
    for (const network of NETWORKS) assert.equal(renderRichText('plain 😀 text', network), 'plain 😀 text');
  });
});
