/**
 * Log redaction (core/observability/redact.ts): every secret shape is replaced, and the cheap pre-check that skips
 * the long-run pattern never changes the result: the output is compared with the plain chain of patterns (the
 * reference below, as it was before the pre-check) on the named shapes and on many random texts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonLogLine } from '../../src/core/observability/json-log.js';
import { redactSecrets } from '../../src/core/observability/redact.js';
import { newSecret } from '../../src/core/tokens.js';

const REFERENCE: [RegExp, string][] = [
  [/\b(sk|pk)_[A-Za-z0-9_-]{20,}/g, '$1_[redacted]'],
  [/\bbot\d+:[A-Za-z0-9_-]+/gi, 'bot[redacted]'],
  [/\b\d{5,}:[A-Za-z0-9_-]{30,}/g, '[redacted]'],
  [/([?&#](?:session|jwt|token|code|state|ticket|access_token|refresh_token|key)=)[^&#\s"]*/gi, '$1[redacted]'],
  [/\b(Bearer\s+)[A-Za-z0-9._~+/=-]+/gi, '$1[redacted]'],
  [/\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g, '[redacted-jwt]'],
  [/\b[A-Za-z0-9_-]{40,}\b/g, '[redacted]'],
];
const reference = (text: string): string => REFERENCE.reduce((result, [shape, replacement]) => result.replace(shape, replacement), text);

/** A small deterministic generator, so a failure can be replayed. */
function generator(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe('redactSecrets', () => {
  const secret = newSecret();
  const named = [
    `key sk_${secret} and pk_${secret}`,
    `GET /bot123456:${secret.slice(0, 35)}/sendMessage`,
    `token 1234567:${secret.slice(0, 35)}`,
    `https://x.example/cb?code=abc123&state=${secret}#access_token=zzz`,
    `Authorization: Bearer ${secret}`,
    `jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.${secret}`,
    `bare ${secret} token`,
    `webhook /webhooks/telegram/${secret}`,
    `{"time":"2026-11-24T03:00:00.000Z","level":"info","msg":"request","requestId":"${'a'.repeat(40)}"}`,
  ];

  it('replaces every named secret shape, as the reference chain does', () => {
    for (const text of named) {
      const redacted = redactSecrets(text);
      assert.equal(redacted, reference(text), text);
      assert.ok(!redacted.includes(secret.slice(0, 30)), `a secret survived in ${redacted}`);
    }
    assert.ok(!redactSecrets(named[8]!).includes('a'.repeat(40)));
  });

  it('gives the reference result on random texts around the long-run threshold', () => {
    const random = generator(17);
    const pieces = ['a', 'Z', '7', '_', '-', ' ', '"', ':', '.', '/', '?', '=', '&', 'é', '\u2028', 'sk_', 'bot', 'Bearer ', 'eyJ', 'token='];
    for (let n = 0; n < 5_000; n++) {
      let text = '';
      const length = Math.floor(random() * 120);
      while (text.length < length) {
        // Long runs of one character class, of lengths around 40, and single separators between them.
        if (random() < 0.3) text += 'x'.repeat(36 + Math.floor(random() * 8));
        else text += pieces[Math.floor(random() * pieces.length)];
      }
      assert.equal(redactSecrets(text), reference(text), JSON.stringify(text));
    }
  });

  it('leaves an access line without secrets as it is', () => {
    const line = jsonLogLine('info', 'request', { requestId: '0b8e7c52-3c55-4d9c-9a6f-8c7c7a3e9d11', method: 'GET', route: '/api/profiles/link-sessions/:sessionId', status: 200, ms: 1 });
    assert.equal(redactSecrets(line), line);
    assert.equal(JSON.parse(line).requestId, '0b8e7c52-3c55-4d9c-9a6f-8c7c7a3e9d11');
  });
});

describe('jsonLogLine time', () => {
  it('writes the ISO time of the given millisecond, across seconds and in any order', () => {
    const times = [0, 999, 1000, 1_800_000_000_123, 1_800_000_000_999, 1_800_000_001_000, 1_800_000_000_500, -1, -1001, 253_402_300_799_999, 1.5];
    for (const now of times) {
      assert.equal((JSON.parse(jsonLogLine('info', 'x', {}, now)) as { time: string }).time, new Date(now).toISOString(), String(now));
    }
  });
});
