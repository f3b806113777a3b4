/**
 * Secrets and ids come from a pool of CSPRNG bytes (core/tokens.ts): each byte is handed out once, across pool
 * refills, so no two secrets or ids are ever equal and each has its full length.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newId, newSecret } from '../../src/core/tokens.js';

describe('secrets and ids', () => {
  it('are distinct and full length over many pool refills', () => {
    const secrets = Array.from({ length: 2000 }, () => newSecret('sk_'));
    const ids = Array.from({ length: 2000 }, () => newId('ls_'));
    for (const secret of secrets) assert.match(secret, /^sk_[A-Za-z0-9_-]{43}$/);
    for (const id of ids) assert.match(id, /^ls_[0-9a-f]{24}$/);
    // 32-byte and 12-byte draws interleaved: a slice handed out twice would repeat a value or share its bytes.
    const mixed = Array.from({ length: 500 }, (_, i) => (i % 2 ? newSecret() : newId('')));
    assert.equal(new Set([...secrets, ...ids, ...mixed]).size, secrets.length + ids.length + mixed.length);
  });
});
