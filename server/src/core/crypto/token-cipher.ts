/**
 * @module
 * Provider tokens at rest: AES-256-GCM with a random 96-bit nonce per message and the row's identity as
 * additional data (profile | platform | network account id), so a ciphertext moved to another row fails to
 * decrypt. The key comes from the environment (`TOKEN_ENCRYPTION_KEY`, base64 of 32 bytes), never the database;
 * its id is stored with each ciphertext so keys can be rotated (`TOKEN_ENCRYPTION_OLD_KEYS`).
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

export interface TokenCipher {
  encrypt(plaintext: string, additionalData: string): string;
  decrypt(envelope: string, additionalData: string): string;
}

const VERSION = 'v1';
/** GCM's full tag. Node accepts shorter ones (down to 4 bytes) unless told the length, and a short tag is forgeable. */
const TAG_BYTES = 16;

/** `keys[0]` encrypts; every key decrypts. Each key is 32 bytes. */
export function createTokenCipher(keys: Buffer[]): TokenCipher {
  if (keys.length === 0 || keys.some((key) => key.length !== 32)) throw new Error('Token encryption keys must be 32 bytes each.');
  const byId = new Map(keys.map((key) => [keyId(key), key]));
  const current = keys[0]!;
  const currentId = keyId(current);
  return {
    encrypt(plaintext, additionalData) {
      const nonce = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', current, nonce, { authTagLength: TAG_BYTES });
      cipher.setAAD(Buffer.from(additionalData, 'utf8'));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return [VERSION, currentId, nonce.toString('base64url'), body.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
    },
    decrypt(envelope, additionalData) {
      const [version, id, nonce, body, tag] = envelope.split('.');
      const key = id ? byId.get(id) : undefined;
      if (version !== VERSION || !key || !nonce || body === undefined || !tag) throw new Error('Unreadable token envelope.');
      const tagBytes = Buffer.from(tag, 'base64url');
      if (tagBytes.length !== TAG_BYTES) throw new Error('Unreadable token envelope.');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(nonce, 'base64url'), { authTagLength: TAG_BYTES });
      decipher.setAAD(Buffer.from(additionalData, 'utf8'));
      decipher.setAuthTag(tagBytes);
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}

/** True when `value` has the shape of an envelope made by `encrypt` (whether or not today's keys open it). */
export function looksSealed(value: string): boolean {
  const parts = value.split('.');
  return parts.length === 5 && parts[0] === VERSION;
}

/** A short, non-secret fingerprint of a key, stored beside each ciphertext. */
function keyId(key: Buffer): string {
  return createHash('sha256').update(key).digest('base64url').slice(0, 8);
}

/** The additional data binding a ciphertext to its row. */
export function tokenAad(profileId: string, platform: string, networkUserId: string): string {
  return `${profileId}|${platform}|${networkUserId}`;
}

/** The linked account whose row sealed tokens belong to (the additional data binds them to it). */
export interface TokenOwner {
  profileId: string;
  platform: string;
  networkUserId: string;
}

/** A linked account's provider tokens, sealed to its row. */
export function sealTokens(cipher: TokenCipher, owner: TokenOwner, tokens: Record<string, unknown>): string {
  return cipher.encrypt(JSON.stringify(tokens), tokenAad(owner.profileId, owner.platform, owner.networkUserId));
}

/** A linked account's sealed provider tokens, opened (throws when no key of the service opens them). */
export function openTokens(cipher: TokenCipher, owner: TokenOwner, sealed: string): Record<string, unknown> {
  return JSON.parse(cipher.decrypt(sealed, tokenAad(owner.profileId, owner.platform, owner.networkUserId))) as Record<string, unknown>;
}

export function parseKey(base64: string): Buffer {
  const key = Buffer.from(base64, 'base64');
  if (key.length !== 32) throw new Error('TOKEN_ENCRYPTION_KEY must be base64 of exactly 32 bytes.');
  return key;
}
