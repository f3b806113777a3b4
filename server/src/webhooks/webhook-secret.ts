/**
 * @module
 * Webhook signing secrets at rest: sealed with the token cipher (the environment's key, crypto/token-cipher.ts)
 * and bound to their registration (profile and action), so a copy of the database alone cannot forge the
 * integrator's signed events. Sealed at registration, opened by the delivery worker for each attempt.
 */
import type { TokenCipher } from '../crypto/token-cipher.js';

export function sealWebhookSecret(cipher: TokenCipher, profileId: string, action: string, secret: string): string {
  return cipher.encrypt(secret, secretAad(profileId, action));
}

export type OpenedSecret = { ok: true; secret: string | null } | { ok: false; error: string };

/** The plain secret, `null` when the registration has none, or why it cannot be opened. */
export function openWebhookSecret(cipher: TokenCipher, profileId: string, action: string, sealedSecret: string | null): OpenedSecret {
  if (sealedSecret === null) return { ok: true, secret: null };
  try {
    return { ok: true, secret: cipher.decrypt(sealedSecret, secretAad(profileId, action)) };
  } catch {
    return { ok: false, error: 'the registration secret cannot be decrypted with the configured token encryption keys' };
  }
}

function secretAad(profileId: string, action: string): string {
  return `webhook-secret|${profileId}|${action}`;
}
