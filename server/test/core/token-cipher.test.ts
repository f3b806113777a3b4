/**
 * The token cipher's envelope (core/crypto/token-cipher.ts): a round trip, and GCM's tag held to its full 16 bytes.
 * A 4-byte tag is the forgery the length check stops: Node's decipher takes any tag from 4 bytes up unless the
 * length is fixed, and 2^32 guesses find a 4-byte tag that a truncated check would accept.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { createTokenCipher } from '../../src/core/crypto/token-cipher.js';

const cipher = createTokenCipher([randomBytes(32)]);

describe('token cipher', () => {
  it('opens what it sealed, only with the same additional data', () => {
    const sealed = cipher.encrypt('access-token', 'p|twitter|42');
    assert.equal(cipher.decrypt(sealed, 'p|twitter|42'), 'access-token');
    assert.throws(() => cipher.decrypt(sealed, 'p|twitter|43'));
  });

  it('seals with a 16-byte tag and refuses an envelope whose tag is cut to 4 bytes', () => {
    const sealed = cipher.encrypt('access-token', 'p|twitter|42');
    const parts = sealed.split('.');
    const tag = Buffer.from(parts[4]!, 'base64url');
    assert.equal(tag.length, 16);
    const short = [...parts.slice(0, 4), tag.subarray(0, 4).toString('base64url')].join('.');
    assert.throws(() => cipher.decrypt(short, 'p|twitter|42'), /Unreadable token envelope/);
    // The check does not depend on the tag being wrong: a short tag is refused before it is compared.
    const long = [...parts.slice(0, 4), Buffer.concat([tag, tag]).toString('base64url')].join('.');
    assert.throws(() => cipher.decrypt(long, 'p|twitter|42'), /Unreadable token envelope/);
  });
});
