/**
 * @module
 * The service's own signing key per account, for the deprecated generate-JWT operation (spec 9): an Ed25519
 * keypair made on first use. Its public half verifies the JWTs it signs (`kid: slk-service`). The integration
 * reset deletes it, which ends every link it signed.
 */
import { exportJWK, generateKeyPair, importJWK, type CryptoKey, type KeyObject } from 'jose';
import type { Clock } from '../clock.js';
import type { IntegrationKey, Storage } from '../storage/types.js';

export async function serviceSigningKey(storage: Storage, accountId: string, clock: Clock): Promise<CryptoKey | KeyObject | Uint8Array> {
  let key = await storage.findIntegrationKey(accountId, 'service');
  if (!key) {
    const pair = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
    const candidate: IntegrationKey = {
      accountId,
      kind: 'service',
      algorithm: 'EdDSA',
      publicJwk: { ...(await exportJWK(pair.publicKey)) },
      privateJwk: { ...(await exportJWK(pair.privateKey)) },
      createdAt: clock(),
    };
    // Two first calls at once: both get whichever key was stored first.
    key = await storage.addIntegrationKeyIfMissing(candidate);
  }
  return importJWK(key.privateJwk!, 'EdDSA');
}
