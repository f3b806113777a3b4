import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NETWORKS } from '@social-link-kit/protocol';
import { PUBLISHING_CAPABILITIES } from '@social-link-kit/protocol/publishing/capabilities.js';
import { applyLineBreaks, removeLineBreakMarkers } from '../../src/publishing/rules/line-breaks.js';

const withBreaks = NETWORKS.filter((n) => PUBLISHING_CAPABILITIES[n].lineBreaks);
const withoutBreaks = NETWORKS.filter((n) => !PUBLISHING_CAPABILITIES[n].lineBreaks);

describe('applyLineBreaks', () => {
  it('writes every break as U+2063 + LF where the network keeps them, whatever form it arrived in', () => {
    assert.ok(withBreaks.includes('instagram'));
    for (const network of withBreaks) {
      assert.equal(applyLineBreaks('a\nb\r\nc\rd', network), 'a\u2063\nb\u2063\nc\u2063\nd', network);
      assert.equal(applyLineBreaks('para\n\nnext', network), 'para\u2063\n\u2063\nnext', network);
    }
  });

  it('does not double a separator already written by the caller', () => {
    assert.equal(applyLineBreaks('a\u2063\nb', 'instagram'), 'a\u2063\nb');
    assert.equal(applyLineBreaks(applyLineBreaks('a\n\nb', 'twitter'), 'twitter'), 'a\u2063\n\u2063\nb');
  });

  it('joins lines with one space where the network has no line breaks', () => {
    assert.ok(withoutBreaks.length > 0);
    for (const network of withoutBreaks) {
      assert.equal(applyLineBreaks('one \n\n  two\u2063\nthree', network), 'one two three', network);
    }
  });

  it('leaves text without breaks unchanged', () => {
    for (const network of NETWORKS) assert.equal(applyLineBreaks('one line', network), 'one line');
  });

  it('turns the markers back into plain line feeds', () => {
    assert.equal(removeLineBreakMarkers('a\u2063\nb\r\nc'), 'a\nb\nc');
  });
});
