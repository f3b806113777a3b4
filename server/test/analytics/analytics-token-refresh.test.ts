/**
 * Analytics and comments calls renew an expiring access token first, as publishing does (the same rotation-safe
 * refresher): on a real service on loopback, youtube's account analytics with a token about to expire answer 200
 * and leave the rotated tokens stored.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { tokenAad } from '../../src/core/crypto/token-cipher.js';
import type { TestService } from '../support/test-service.js';
import { startPublishingService } from '../publishing/publishing-fixtures.js';

let svc: TestService;
before(async () => {
  svc = await startPublishingService({ env: { ANALYTICS_SNAPSHOTS: 'off' } });
});
after(() => svc.close());

const row = async () => (await svc.sql("SELECT * FROM social_accounts WHERE profile_id = ? AND platform = 'youtube'", [svc.primaryProfile.id])).rows[0]!;
const aad = (networkUserId: string) => tokenAad(svc.primaryProfile.id, 'youtube', networkUserId);
const tokens = async () => {
  const current = await row();
  return JSON.parse(svc.tokenCipher.decrypt(current.tokens_encrypted, aad(current.network_user_id))) as Record<string, any>;
};

test('an expiring token is renewed before the account analytics call; the rotated tokens are stored', async () => {
  assert.equal((await svc.api('POST', '/sandbox/accounts', { body: { platform: 'youtube' } })).status, 200);
  const current = await row();
  const expiring: Record<string, any> = { ...(await tokens()), expiresIn: 3600, obtainedAt: svc.clock() - 3_500_000 };
  await svc.sql("UPDATE social_accounts SET tokens_encrypted = ? WHERE profile_id = ? AND platform = 'youtube'", [
    svc.tokenCipher.encrypt(JSON.stringify(expiring), aad(current.network_user_id)),
    svc.primaryProfile.id,
  ]);
  const answer = await svc.api('POST', '/analytics/social', { body: { platforms: ['youtube'] } });
  assert.equal(answer.status, 200, JSON.stringify(answer.json));
  assert.equal(typeof answer.json.youtube.analytics.subscriberCount, 'number');
  const renewed = await tokens();
  assert.notEqual(renewed.accessToken, expiring.accessToken);
  assert.notEqual(renewed.refreshToken, expiring.refreshToken);
  assert.equal(renewed.obtainedAt, svc.clock());
});
