/**
 * Issue 27, item 11: the protocol's weighted counter (src/protocol/publishing/text-length.ts) against X's own
 * twitter-text library over a corpus of a few thousand mixed texts: URLs with and without a scheme, bare domains
 * (`foo.co.uk`, `bar.io`), e-mail addresses, mentions, hashtags, emoji (skin tones, ZWJ sequences, flags, keycaps),
 * CJK, Arabic, accents (composed and not) and punctuation. Seeded, so a failure names a text that stays the same.
 * twitter-text runs in a child process: it loads core-js 2, whose polyfills replace RegExp and String methods of
 * the process that loads it (they break the counter under test), which is also why it is not a runtime dependency.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { twitterWeightedLength } from '@social-link-kit/protocol/publishing/text-length.js';
import { PUBLISHING_CAPABILITIES } from '@social-link-kit/protocol/publishing/capabilities.js';

const PIECES = [
  'hello', 'world', 'Launch day!', 'see', 'at', '—', '…', '"quoted"', '(aside)', 'a.b', 'end.', '?', '!', ',', ':',
  'foo.co.uk', 'bar.io', 'example.com', 'sub.example.org/path', 'shop.example.de/a?b=1', 'www.example.com',
  'https://example.com', 'http://example.com/a/b?c=d#e', 'https://x.com/a.', 'https://t.co/abcdefghij', 'example.invalidtld',
  'http://例え.テスト/パス', 'mañana.es', 'user@example.com', '@someone', '#tag', '#tag.io', '$CASH', 'x.com/path?y=1',
  'https://example.com/(wiki)', 'file.txt', 'v1.2.3', 'a.co', 'xn--fiqs8s.cn', '-foo.io', '_bar.io', '/baz.io',
  '日本語のテキスト', '中文', '한국어', 'مرحبا بالعالم', 'Ελληνικά', 'кириллица', 'café', 'cafe\u0301', 'naïve',
  '😀', '👍🏽', '👨‍👩‍👧‍👦', '🏳️‍🌈', '🇫🇷', '🇯🇵🇺🇸', '1️⃣', '#️⃣', '❤️', '✈', '☺', '©', '®', '™', '↔', '€', '∑',
  '\u200d', '\u2063\n', '\n', '  ', '\t',
];

/** twitter-text's `parseTweet(text).weightedLength` for each text, computed in its own process. */
function xWeightedLengths(texts: string[]): number[] {
  const script = `const t = require('twitter-text'); let input = '';
    process.stdin.on('data', (d) => (input += d)).on('end', () => process.stdout.write(JSON.stringify(JSON.parse(input).map((text) => t.parseTweet(text).weightedLength))));`;
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { input: JSON.stringify(texts), cwd: new URL('../..', import.meta.url), maxBuffer: 16 * 1024 * 1024 }).toString()) as number[];
}

function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

test('the weighted count equals twitter-text parseTweet over 3,000 mixed texts', () => {
  const next = random(27);
  const texts = Array.from({ length: 3_000 }, () => {
    const words = Array.from({ length: 1 + Math.floor(next() * 12) }, () => PIECES[Math.floor(next() * PIECES.length)]!);
    return words.join(next() < 0.8 ? ' ' : '');
  });
  const batch = xWeightedLengths(texts);
  // In one long-running process twitter-text's count of a few texts drifts with what it counted before; a text
  // whose batch count differs from ours is counted again alone, and that is X's count of it.
  const differing = texts.filter((text, i) => twitterWeightedLength(text) !== batch[i]);
  const alone = differing.length > 0 ? differing.map((text) => xWeightedLengths([text])[0]) : [];
  const mismatches = differing.filter((text, i) => twitterWeightedLength(text) !== alone[i]).map((text) => `${JSON.stringify(text)}: ours ${twitterWeightedLength(text)}, X ${alone[differing.indexOf(text)]}`);
  assert.deepEqual(mismatches.slice(0, 10), []);
  assert.ok(differing.length < 30, `${differing.length} texts recounted alone`);
});

test('bare domains count 23 each, so a text X refuses is refused here too (limit 280)', () => {
  assert.equal(twitterWeightedLength('foo.co.uk bar.io'), 47);
  const text = `${'a'.repeat(250)} ${'foo.co.uk '.repeat(2)}`.trim();
  assert.deepEqual([twitterWeightedLength(text)], xWeightedLengths([text]));
  assert.ok(twitterWeightedLength(text) > PUBLISHING_CAPABILITIES.twitter.text.max);
});
