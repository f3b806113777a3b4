/**
 * @module
 * Snap's media upload takes the file encrypted with AES-256-CBC (PKCS#7 padding, as `openssl enc -aes-256-cbc`
 * writes it) under a fresh random key and IV, which are sent with the media container so Snap can decrypt it; the
 * encrypted file goes up in parts of at most 32 MB.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export const SNAP_PART_BYTES = 32 * 1024 * 1024;

export interface EncryptedMedia {
  /** base64 */
  key: string;
  /** base64 */
  iv: string;
  parts: Uint8Array[];
}

export function encryptForSnap(bytes: Uint8Array, partBytes = SNAP_PART_BYTES): EncryptedMedia {
  const key = randomBytes(32);
  const iv = randomBytes(16);
  const cipher = createCipheriv('aes-256-cbc', key, iv);
  const encrypted = Buffer.concat([cipher.update(bytes), cipher.final()]);
  const parts: Uint8Array[] = [];
  for (let offset = 0; offset < encrypted.byteLength; offset += partBytes) parts.push(encrypted.subarray(offset, offset + partBytes));
  return { key: key.toString('base64'), iv: iv.toString('base64'), parts };
}

/** The sandbox's side: the parts joined and decrypted; throws when key, IV or padding do not fit. */
export function decryptSnapMedia(encrypted: Uint8Array, keyBase64: string, ivBase64: string): Buffer {
  const decipher = createDecipheriv('aes-256-cbc', Buffer.from(keyBase64, 'base64'), Buffer.from(ivBase64, 'base64'));
  return Buffer.concat([decipher.update(encrypted), decipher.final()]);
}
