/**
 * @module
 * The service's own signing key per account, for the deprecated generate-JWT operation (spec 9): an Ed25519
 * keypair made on first use. Its public half verifies the JWTs it signs (`kid: slk-service`). The integration
 * reset deletes it, which ends every link it signed.
 *
 * The private half is stored sealed with the token cipher (the key that encrypts provider tokens, which lives
 * in the environment), bound to the account, so a copy of the database alone cannot sign links.
 */
import { exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK, type KeyObject } from 'jose';
import type { Clock } from '../../core/clock.js';
import type { TokenCipher } from '../../core/crypto/token-cipher.js';
import type { IntegrationKey } from '../../core/db/storage-types.js';
import type { Storage } from '../../storage/storage.js';

type SigningKey = CryptoKey | KeyObject | Uint8Array;

export async function serviceSigningKey(storage: Storage, cipher: TokenCipher, accountId: string, clock: Clock): Promise<SigningKey> {
  const stored = await storage.integrationKeys.findIntegrationKey(accountId, 'service');
  const storedJwk = stored && unseal(stored, cipher);
  if (storedJwk) return importJWK(storedJwk, 'EdDSA');

  const fresh = await newServiceKey(cipher, accountId, clock);
  // Unreadable: written before keys were sealed, or sealed with a cipher key no longer configured. Replacing it
  // ends the links it signed, as a reset would. Callers racing here (or on a first use) all get the key stored
  // by the first of them.
  const inEffect = stored
    ? await storage.integrationKeys.replaceIntegrationKeyIfUnchanged(fresh, stored.sealedPrivateKey)
    : await storage.integrationKeys.addIntegrationKeyIfMissing(fresh);
  const inEffectJwk = inEffect && unseal(inEffect, cipher);
  // Deleted by a reset meanwhile, or replaced by an instance with other cipher keys: sign with ours, now stored.
  if (!inEffectJwk) return serviceSigningKey(storage, cipher, accountId, clock);
  return importJWK(inEffectJwk, 'EdDSA');
}

async function newServiceKey(cipher: TokenCipher, accountId: string, clock: Clock): Promise<IntegrationKey> {
  const pair = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
  return {
    accountId,
    kind: 'service',
    algorithm: 'EdDSA',
    publicJwk: { ...(await exportJWK(pair.publicKey)) },
    sealedPrivateKey: cipher.encrypt(JSON.stringify(await exportJWK(pair.privateKey)), sealingAad(accountId)),
    createdAt: clock(),
  };
}

/** The private JWK, or null when the stored value cannot be opened with the configured cipher keys. */
function unseal(key: IntegrationKey, cipher: TokenCipher): JWK | null {
  if (!key.sealedPrivateKey) return null;
  try {
    return JSON.parse(cipher.decrypt(key.sealedPrivateKey, sealingAad(key.accountId))) as JWK;
  } catch {
    return null;
  }
}

/** Binds the sealed key to its account: moved to another account's row, it no longer opens. */
function sealingAad(accountId: string): string {
  return `service-signing-key|${accountId}`;
}
