/**
 * @module
 * Reads the public key an integrator registers for legacy JWT links: a JWK (object or JSON text) or a PEM
 * SubjectPublicKeyInfo (`-----BEGIN PUBLIC KEY-----`). The algorithm follows from the key type: RSA ≥ 2048
 * bits → RS256, EC P-256 → ES256, Ed25519 → EdDSA. Private keys, symmetric keys and other curves are refused.
 */
import { createPublicKey, type JsonWebKey, type KeyObject } from 'node:crypto';
import { badRequest } from '../../core/errors.js';
import { LEGACY_ALGORITHMS, type LegacyAlgorithm } from './legacy-jwt-rules.js';

const ACTION = 'integration key';
const MAX_KEY_TEXT = 10_000;

export interface ParsedPublicKey {
  algorithm: LegacyAlgorithm;
  publicJwk: Record<string, unknown>;
}

export function parsePublicKeyInput(value: unknown): ParsedPublicKey {
  const invalid = (message: string) => badRequest(message, { allowedAlgorithms: LEGACY_ALGORITHMS }, ACTION);
  let jwk: Record<string, unknown> | null = null;
  let key: KeyObject;
  try {
    if (typeof value === 'string' && value.length <= MAX_KEY_TEXT && value.trim().startsWith('-----BEGIN PUBLIC KEY-----')) {
      key = createPublicKey({ key: value.trim(), format: 'pem', type: 'spki' });
    } else {
      jwk = typeof value === 'string' && value.length <= MAX_KEY_TEXT && value.trim().startsWith('{') ? JSON.parse(value) : value;
      if (typeof jwk !== 'object' || jwk === null || Array.isArray(jwk)) throw invalid('"publicKey" must be a JWK or a PEM public key.');
      if ('d' in jwk || 'k' in jwk || jwk.kty === 'oct') throw invalid('"publicKey" must be a public key: send no private or symmetric key material.');
      key = createPublicKey({ key: jwk as JsonWebKey, format: 'jwk' });
    }
  } catch (error) {
    if (error instanceof Error && error.name === 'ApiError') throw error;
    throw invalid('"publicKey" is required: a JWK or a PEM public key (-----BEGIN PUBLIC KEY-----).');
  }
  const algorithm = algorithmOf(key);
  if (!algorithm) throw invalid('Unsupported key: use RSA (2048 bits or more), EC P-256 or Ed25519.');
  if (jwk && jwk.alg !== undefined && jwk.alg !== algorithm) throw invalid(`The JWK "alg" does not match its key type (${algorithm}).`);
  return { algorithm, publicJwk: key.export({ format: 'jwk' }) as Record<string, unknown> };
}

function algorithmOf(key: KeyObject): LegacyAlgorithm | null {
  const details = key.asymmetricKeyDetails ?? {};
  if (key.asymmetricKeyType === 'rsa') return (details.modulusLength ?? 0) >= 2048 ? 'RS256' : null;
  if (key.asymmetricKeyType === 'ec') return details.namedCurve === 'prime256v1' ? 'ES256' : null;
  if (key.asymmetricKeyType === 'ed25519') return 'EdDSA';
  return null;
}
