/**
 * Secrets and ids come from a pool of CSPRNG bytes (core/tokens.ts): each byte is handed out once, across pool
 * refills, so no two secrets or ids are ever equal and each has its full length.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { hashSecret, newId, newSecret } from '../../src/core/tokens.js';

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

  it('hash as SHA-256 hex of the UTF-8 text, the form every stored hash has', () => {
    assert.equal(hashSecret('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    for (const secret of [newSecret('sk_'), 'clé-ünïcode-✓', '']) {
      assert.equal(hashSecret(secret), createHash('sha256').update(secret, 'utf8').digest('hex'));
    }
  });
});
