import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { measureText } from '../../src/networks/text/text-length.js';
import { planThread, rawPlatformText, resolvePlatformText } from '../../src/publishing/rules/platform-text.js';

describe('resolvePlatformText', () => {
  it('takes the platform key of the object form, else default, else empty', () => {
    const request = { post: { default: 'for all', twitter: 'for twitter' } };
    assert.equal(rawPlatformText(request, 'twitter'), 'for twitter');
    assert.equal(rawPlatformText(request, 'facebook'), 'for all');
    assert.equal(rawPlatformText({ post: { twitter: 'x' } }, 'facebook'), '');
    assert.equal(rawPlatformText({ post: 'same' }, 'reddit'), 'same');
  });

  it('adds hashtags before rich text, then styles, then writes line breaks', () => {
    const request = { post: '<b>Spring</b> collection\nin store', autoHashtag: { max: 1, position: 'end' as const } };
    // the keyword is picked from the raw text: the markup's tag name "b" never becomes a hashtag and
    // the styled letters never do either
    assert.equal(resolvePlatformText(request, 'twitter'), '𝗦𝗽𝗿𝗶𝗻𝗴 collection\u2063\nin store #collection');
    assert.equal(resolvePlatformText(request, 'reddit'), '**Spring** collection\u2063\nin store #collection');
    assert.equal(resolvePlatformText(request, 'pinterest'), 'Spring collection in store #collection');
  });

  it('adds no hashtags unless asked, and the default count when autoHashtag is true', () => {
    const text = 'Spring collection arrives tomorrow morning';
    assert.equal(resolvePlatformText({ post: text }, 'facebook'), text);
    assert.equal(resolvePlatformText({ post: text, autoHashtag: false }, 'facebook'), text);
    assert.equal((resolvePlatformText({ post: text, autoHashtag: true }, 'facebook').match(/#/g) ?? []).length, 2);
  });
});

describe('planThread', () => {
  it('keeps a fitting text as one part', () => {
    assert.deepEqual(planThread('hello', 'twitter'), { ok: true, parts: ['hello'] });
  });

  it('splits an over-long text into parts of at most 275 on a network with threads', () => {
    const plan = planThread('word '.repeat(200), 'twitter');
    assert.ok(plan.ok);
    assert.ok(plan.parts.length > 1);
    for (const part of plan.parts) assert.ok(measureText(part, 'weighted') <= 275);
  });

  it('gives 275 when the thread would need more than 30 posts', () => {
    // 31 words of 140: 4,371 weighted, under 30 × 275, but no part holds two of them
    const plan = planThread(Array.from({ length: 31 }, () => 'x'.repeat(140)).join(' '), 'twitter');
    assert.equal(plan.ok, false);
    if (!plan.ok) assert.equal(plan.issue.code, 275);
    const huge = planThread('日'.repeat(100_000), 'twitter');
    assert.equal(huge.ok, false);
    if (!huge.ok) assert.equal(huge.issue.code, 275);
  });

  it('gives 101 for a text too long on a network without threads, and for an empty text where one is needed', () => {
    const long = planThread('x'.repeat(2_201), 'instagram');
    assert.equal(long.ok, false);
    if (!long.ok) assert.equal(long.issue.code, 101);
    assert.deepEqual(planThread('x'.repeat(2_200), 'instagram'), { ok: true, parts: ['x'.repeat(2_200)] });
    const empty = planThread('  ', 'bluesky');
    assert.equal(empty.ok, false);
    assert.deepEqual(planThread('', 'instagram'), { ok: true, parts: [''] });
  });
});
