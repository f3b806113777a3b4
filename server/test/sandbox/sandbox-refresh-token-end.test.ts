/**
 * The sandbox's tiktok and linkedin refresh tokens end 365 days after the user's consent, as the real networks' do:
 * the token answers give the seconds left (`refresh_expires_in` / `refresh_token_expires_in`), a rotated refresh
 * token keeps the consent's end, and one used after it is `invalid_grant`. Other networks' refresh tokens do not end.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Network } from '@social-link-kit/protocol';
import { startTestService, type TestService } from '../support/test-service.js';

const DAY = 86_400_000;
const YEAR_S = 365 * 86_400;

describe('sandbox refresh tokens that end a year after consent', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(async () => {
    await svc?.close();
  });

  const token = async (platform: Network, form: Record<string, string>) => {
    const answer = await fetch(`${svc.url}/sandbox/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...form, [platform === 'tiktok' ? 'client_key' : 'client_id']: `sandbox-${platform}`, client_secret: 'sandbox-secret' }),
    });
    return { status: answer.status, json: (await answer.json()) as Record<string, any> };
  };

  const consentTokens = async (platform: Network) => {
    const redirectUri = `${svc.config.publicUrl}/connect/callback/${platform}`;
    const consent = await fetch(`${svc.url}/sandbox/authorize`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ choice: 'allow', redirect_uri: redirectUri, state: 's', client_id: `sandbox-${platform}`, response_type: 'code' }),
    });
    assert.equal(consent.status, 302, await consent.text());
    const code = new URL(consent.headers.get('location')!).searchParams.get('code')!;
    const exchanged = await token(platform, { grant_type: 'authorization_code', code, redirect_uri: redirectUri });
    assert.equal(exchanged.status, 200, JSON.stringify(exchanged.json));
    return exchanged.json;
  };

  for (const [platform, field] of [
    ['tiktok', 'refresh_expires_in'],
    ['linkedin', 'refresh_token_expires_in'],
  ] as const) {
    it(`${platform}: ${field} counts down from the consent; rotation keeps the end; after it invalid_grant`, async () => {
      const issued = await consentTokens(platform);
      assert.equal(issued[field], YEAR_S);
      svc.clock.advance(100 * DAY);
      const rotated = await token(platform, { grant_type: 'refresh_token', refresh_token: issued.refresh_token });
      assert.equal(rotated.status, 200, JSON.stringify(rotated.json));
      assert.notEqual(rotated.json.refresh_token, issued.refresh_token);
      assert.equal(rotated.json[field], YEAR_S - 100 * 86_400, 'refreshing does not extend the end');
      svc.clock.advance(265 * DAY);
      const late = await token(platform, { grant_type: 'refresh_token', refresh_token: rotated.json.refresh_token });
      assert.equal(late.status, 400, JSON.stringify(late.json));
      assert.equal(late.json.error, 'invalid_grant');
    });
  }

  it('pinterest: refresh tokens do not end, and the answers say nothing of it', async () => {
    const issued = await consentTokens('pinterest');
    assert.equal(issued.refresh_expires_in, undefined);
    assert.equal(issued.refresh_token_expires_in, undefined);
    svc.clock.advance(400 * DAY);
    const rotated = await token('pinterest', { grant_type: 'refresh_token', refresh_token: issued.refresh_token });
    assert.equal(rotated.status, 200, JSON.stringify(rotated.json));
  });
});
