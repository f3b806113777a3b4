/**
 * @module
 * Webhook signing secrets at rest: sealed with the token cipher (the environment's key, crypto/token-cipher.ts)
 * and bound to their registration (profile and action), so a copy of the database alone cannot forge the
 * integrator's signed events. Sealed at registration, opened by the delivery worker for each attempt.
 */
import { looksSealed, type TokenCipher } from '../core/crypto/token-cipher.js';
import type { Storage } from '../storage/storage.js';

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

/**
 * Seals the secrets stored in plain text before secrets were sealed; run at start-up. Compare-and-swap per row,
 * so instances starting together, or a registration changed meanwhile, lose nothing. Returns how many it sealed.
 */
export async function sealPlainWebhookSecrets(storage: Storage, cipher: TokenCipher): Promise<number> {
  let sealed = 0;
  for (const registration of await storage.webhooks.listWebhooksWithSecrets()) {
    const stored = registration.sealedSecret!;
    if (looksSealed(stored)) continue;
    const { profileId, action } = registration;
    if (await storage.webhooks.replaceWebhookSecretIfUnchanged(profileId, action, stored, sealWebhookSecret(cipher, profileId, action, stored))) sealed++;
  }
  return sealed;
}

function secretAad(profileId: string, action: string): string {
  return `webhook-secret|${profileId}|${action}`;
}
