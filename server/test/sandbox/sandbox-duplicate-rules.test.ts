/**
 * The sandbox refuses a post whose text repeats one of the account's recent posts, as linkedin does (422
 * DUPLICATE_POST). The check reads only the recent rows with the same text (issue 31: the sandbox's cost must not grow
 * with its posts and skew publishing benchmarks), and keeps the rule: a deleted post and a post older than the 100
 * newest do not count, and another member's post never does.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createAccount } from '../../src/accounts/service.js';
import { openTokens } from '../../src/core/crypto/token-cipher.js';
import { startTestService, type TestService } from '../support/test-service.js';

const LINKEDIN_HEADERS = { 'LinkedIn-Version': '202611', 'X-Restli-Protocol-Version': '2.0.0', 'Content-Type': 'application/json' };
let svc: TestService;
before(async () => {
  svc = await startTestService();
});
after(() => svc.close());

/** A linkedin member linked by the sandbox shortcut (a unit test of the sandbox), with its access token. */
async function member(): Promise<{ urn: string; headers: Record<string, string> }> {
  const { apiKey, primaryProfile } = await createAccount(svc.storage, svc.clock);
  const linked = await fetch(`${svc.url}/api/sandbox/accounts`, { method: 'POST', headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ platform: 'linkedin' }) });
  assert.equal(linked.status, 200, await linked.clone().text());
  const stored = (await svc.storage.linking.findSocialAccount(primaryProfile.id, 'linkedin'))!;
  const { accessToken } = openTokens(svc.tokenCipher, { profileId: primaryProfile.id, platform: 'linkedin', networkUserId: stored.networkUserId }, stored.tokensEncrypted!);
  return { urn: `urn:li:person:${stored.networkUserId}`, headers: { ...LINKEDIN_HEADERS, Authorization: `Bearer ${String(accessToken)}` } };
}

async function post(who: { urn: string; headers: Record<string, string> }, commentary: string): Promise<{ status: number; urn: string | null; code?: string }> {
  svc.clock.advance(1_000); // each post its own time, so "the newest" is one order
  const answer = await fetch(`${svc.url}/sandbox/linkedin/rest/posts`, {
    method: 'POST',
    headers: who.headers,
    body: JSON.stringify({ author: who.urn, commentary, visibility: 'PUBLIC', lifecycleState: 'PUBLISHED', distribution: { feedDistribution: 'MAIN_FEED' } }),
  });
  const body = answer.status === 201 ? null : ((await answer.json()) as { code?: string });
  return { status: answer.status, urn: answer.headers.get('x-restli-id'), code: body?.code };
}

test('linkedin refuses a repeated commentary among the 100 newest live posts of the same member only', async () => {
  const alice = await member();
  const bob = await member();
  const first = await post(alice, 'Hello from the sandbox');
  assert.equal(first.status, 201);
  assert.deepEqual(await post(alice, 'Hello from the sandbox'), { status: 422, urn: null, code: 'DUPLICATE_POST' });
  assert.equal((await post(bob, 'Hello from the sandbox')).status, 201, "another member's post does not count");
  assert.equal((await post(alice, 'Hello from the *sandbox*')).status, 201, 'another commentary with the same readable text is not the same');

  const deleted = await fetch(`${svc.url}/sandbox/linkedin/rest/posts/${encodeURIComponent(first.urn!)}`, { method: 'DELETE', headers: alice.headers });
  assert.equal(deleted.status, 204);
  assert.equal((await post(alice, 'Hello from the sandbox')).status, 201, 'a deleted post does not count');

  for (let i = 0; i < 100; i++) assert.equal((await post(alice, `Filler ${i}`)).status, 201);
  assert.equal((await post(alice, 'Hello from the sandbox')).status, 201, 'older than the 100 newest: no longer a duplicate');
});
