/**
 * @module
 * Legacy JWT links' SQL: the integration keys of an account (the integrator's own, and the service's for
 * generateJWT), and the integration reset.
 */
import { integrationKeyValues, toIntegrationKey } from '../../core/db/rows.js';
import { SqlStore } from '../../core/db/sql-store.js';
import type { IntegrationKey } from '../../core/db/storage-types.js';

const INSERT_INTEGRATION_KEY = `INSERT INTO integration_keys (account_id, kind, algorithm, public_jwk, private_jwk, created_at)
  VALUES (?, ?, ?, ?, ?, ?)`;

export class IntegrationKeyStore extends SqlStore {

  async findIntegrationKey(accountId: string, kind: IntegrationKey['kind']): Promise<IntegrationKey | null> {
    const row = await this.db.get('SELECT * FROM integration_keys WHERE account_id = ? AND kind = ?', [accountId, kind]);
    return row ? toIntegrationKey(row) : null;
  }

  async putIntegrationKey(key: IntegrationKey): Promise<void> {
    await this.db.run(
      `${INSERT_INTEGRATION_KEY}
       ON CONFLICT (account_id, kind) DO UPDATE SET algorithm = excluded.algorithm, public_jwk = excluded.public_jwk,
         private_jwk = excluded.private_jwk, created_at = excluded.created_at`,
      integrationKeyValues(key),
    );
  }

  async addIntegrationKeyIfMissing(key: IntegrationKey): Promise<IntegrationKey> {
    await this.db.run(`${INSERT_INTEGRATION_KEY} ON CONFLICT (account_id, kind) DO NOTHING`, integrationKeyValues(key));
    return (await this.findIntegrationKey(key.accountId, key.kind))!;
  }

  async replaceIntegrationKeyIfUnchanged(key: IntegrationKey, sealedPrivateKeyNow: string | null): Promise<IntegrationKey | null> {
    // Compare-and-swap on the stored private value: of several callers replacing the same key, one wins and the
    // others get its key, so every token they sign verifies.
    await this.db.run(
      `UPDATE integration_keys SET algorithm = ?, public_jwk = ?, private_jwk = ?, created_at = ?
       WHERE account_id = ? AND kind = ? AND private_jwk IS NOT DISTINCT FROM ?`,
      [key.algorithm, JSON.stringify(key.publicJwk), key.sealedPrivateKey, key.createdAt, key.accountId, key.kind, sealedPrivateKeyNow],
    );
    return this.findIntegrationKey(key.accountId, key.kind);
  }

  async resetIntegrationKeys(accountId: string, now: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.run('DELETE FROM integration_keys WHERE account_id = ?', [accountId]);
      await tx.run("UPDATE link_sessions SET revoked_at = ? WHERE account_id = ? AND kind = 'legacy' AND revoked_at IS NULL", [now, accountId]);
    });
  }
}
