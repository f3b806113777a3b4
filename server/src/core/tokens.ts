/**
 * @module
 * Secrets the service hands out (link tokens, API keys, profile keys) and how it stores them: only as SHA-256.
 */
import { createHash, randomBytes } from 'node:crypto';

/** 32 CSPRNG bytes, base64url: 43 characters, 256 bits. */
export function newSecret(prefix = ''): string {
  return prefix + randomBytes(32).toString('base64url');
}

/** Public identifiers (session ids, ref ids): random, not secret, short enough to read. */
export function newId(prefix: string): string {
  return prefix + randomBytes(12).toString('hex');
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}
