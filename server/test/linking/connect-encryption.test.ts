/**
 * Provider tokens at rest (checklist H): AES-256-GCM with the key from the environment, a random nonce, and the
 * row's identity as additional data. The tokens come from a real connection through the sandbox network.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createTokenCipher, parseKey, tokenAad } from '../../src/core/crypto/token-cipher.js';
import { startTestService, tokenOf, type TestService } from '../support/test-service.js';
import { connectAccount } from '../support/oauth-driver.js';

interface StoredRow {
  profile_id: string;
  platform: string;
  network_user_id: string;
  tokens_encrypted: string;
}

async function readRows(svc: TestService): Promise<StoredRow[]> {
  const { rows } = await svc.sql('SELECT profile_id, platform, network_user_id, tokens_encrypted FROM social_accounts ORDER BY platform');
  return rows as StoredRow[];
}

describe('provider tokens at rest', () => {
  const key = randomBytes(32).toString('base64');
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ env: { TOKEN_ENCRYPTION_KEY: key } });
    const token = tokenOf((await svc.client.createLinkSession({ origin: 'https://app.example' })).url);
    assert.equal((await connectAccount(svc, token, 'facebook')).data.outcome, 'success');
    assert.equal((await connectAccount(svc, token, 'linkedin')).data.outcome, 'success');
  });
  after(() => svc.close());

  it('stores no plaintext token: the database holds only ciphertext that decrypts with the env key', async () => {
    const rows = await readRows(svc);
    assert.equal(rows.length, 2);
    const cipher = createTokenCipher([parseKey(key)]);
    const dump = await svc.databaseDump();
    for (const row of rows) {
      const tokens = JSON.parse(cipher.decrypt(row.tokens_encrypted, tokenAad(row.profile_id, row.platform, row.network_user_id))) as {
        accessToken: string;
        refreshToken: string | null;
      };
      assert.ok(tokens.accessToken.length > 16);
      assert.ok(!dump.includes(tokens.accessToken), `plaintext access token of ${row.platform} found in the database file`);
      if (tokens.refreshToken) assert.ok(!dump.includes(tokens.refreshToken), 'plaintext refresh token found in the database file');
      assert.ok(!svc.logLines.join('\n').includes(tokens.accessToken), 'access token found in the log');
    }
  });

  it('uses a fresh nonce each time: the same plaintext never gives the same ciphertext', () => {
    const cipher = createTokenCipher([parseKey(key)]);
    assert.notEqual(cipher.encrypt('same', 'p|facebook|1'), cipher.encrypt('same', 'p|facebook|1'));
  });

  it('a ciphertext moved to another row does not decrypt (AAD = profile | platform | account id)', async () => {
    const [facebook, linkedin] = await readRows(svc);
    assert.ok(facebook && linkedin);
    const cipher = createTokenCipher([parseKey(key)]);
    // The linkedin row's ciphertext, read as if it were stored on the facebook row.
    assert.throws(() => cipher.decrypt(linkedin.tokens_encrypted, tokenAad(facebook.profile_id, facebook.platform, facebook.network_user_id)));
    assert.throws(() => cipher.decrypt(facebook.tokens_encrypted, tokenAad('another-profile', facebook.platform, facebook.network_user_id)));
    assert.throws(() => cipher.decrypt(facebook.tokens_encrypted, tokenAad(facebook.profile_id, facebook.platform, 'another-account')));
  });

  it('a tampered ciphertext or a wrong key does not decrypt', async () => {
    const [row] = await readRows(svc);
    assert.ok(row);
    const aad = tokenAad(row.profile_id, row.platform, row.network_user_id);
    const parts = row.tokens_encrypted.split('.');
    const body = Buffer.from(parts[3]!, 'base64url');
    body[0] = body[0]! ^ 1;
    parts[3] = body.toString('base64url');
    assert.throws(() => createTokenCipher([parseKey(key)]).decrypt(parts.join('.'), aad));
    assert.throws(() => createTokenCipher([randomBytes(32)]).decrypt(row.tokens_encrypted, aad));
  });

  it('an old key still decrypts after rotation, while new ciphertexts use the new key', async () => {
    const [row] = await readRows(svc);
    assert.ok(row);
    const aad = tokenAad(row.profile_id, row.platform, row.network_user_id);
    const rotated = createTokenCipher([randomBytes(32), parseKey(key)]);
    assert.ok(rotated.decrypt(row.tokens_encrypted, aad).includes('accessToken'));
    const fresh = rotated.encrypt('x', aad);
    assert.throws(() => createTokenCipher([parseKey(key)]).decrypt(fresh, aad));
  });
});

describe('development key without TOKEN_ENCRYPTION_KEY', () => {
  it('generates one key file (mode 0600) in the data dir and warns', async () => {
    const svc = await startTestService();
    try {
      const file = join(svc.dir, 'token-key');
      assert.equal(statSync(file).mode & 0o777, 0o600);
      assert.equal(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64').length, 32);
      assert.ok(svc.logLines.some((line) => /TOKEN_ENCRYPTION_KEY/.test(line)));
    } finally {
      await svc.close();
    }
  });
});
