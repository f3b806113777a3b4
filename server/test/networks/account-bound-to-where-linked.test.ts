/**
 * An account is called where it was linked, never mixed (issue 24): with `SANDBOX_NETWORKS=auto` and real
 * credentials for linkedin, a linkedin account linked on the real network publishes to linkedin's API base (here a
 * loopback stand-in configured as that base with `LINKEDIN_API_BASE_URL`) with its real token, while accounts linked
 * on the sandbox (reddit, which has no credentials; and a linkedin account linked on the sandbox before the
 * credentials were configured) keep publishing to the sandbox.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { tokenAad } from '../../src/core/crypto/token-cipher.js';
import { hashSecret, newId, newSecret } from '../../src/core/tokens.js';
import { linkAccount } from '../../src/linking/service.js';
import { sandboxStoreOf } from '@social-link-kit/sandbox/networks/sandbox-tokens.js';
import { createSandboxUserWithNewHandle, issueUserTokens } from '@social-link-kit/sandbox/networks/sandbox-users.js';
import { FAST_JOBS, waitForPost } from '../publishing/publishing-fixtures.js';
import { callback, runUntilCallback } from '../support/oauth-driver.js';
import { startTestService, tokenOf, type TestService } from '../support/test-service.js';

describe('each account is called where it was linked', () => {
  let standIn: Server;
  let standInUrl: string;
  const seen: { method: string; path: string; authorization: string | undefined }[] = [];
  let svc: TestService;

  before(async () => {
    // linkedin's real Posts API, as much as a text post needs: 201 with the post URN in x-restli-id.
    standIn = createServer((req: IncomingMessage, res) => {
      seen.push({ method: req.method!, path: req.url!, authorization: req.headers.authorization });
      req.resume();
      req.on('end', () => {
        res.writeHead(201, { 'x-restli-id': `urn:li:share:${seen.length}` }).end();
      });
    });
    await new Promise<void>((resolve) => standIn.listen(0, '127.0.0.1', resolve));
    standInUrl = `http://127.0.0.1:${(standIn.address() as AddressInfo).port}`;
    svc = await startTestService({
      account: { plan: 'business' },
      env: { ...FAST_JOBS, SANDBOX_NETWORKS: 'auto', LINKEDIN_CLIENT_ID: 'real-id', LINKEDIN_CLIENT_SECRET: 'real-secret', LINKEDIN_API_BASE_URL: standInUrl },
    });
  });
  after(async () => {
    await svc.close();
    await new Promise<void>((resolve) => standIn.close(() => resolve()));
  });

  /** Stores a linked account as a link would (the real network's consent cannot be reached from here). */
  async function storeLinked(profile: { id: string }, platform: 'linkedin', networkUserId: string, sandbox: boolean, tokens: Record<string, unknown>) {
    const now = svc.clock();
    const sessionId = newId('ls_');
    await svc.storage.linking.createLinkSession({
      id: sessionId, tokenHash: hashSecret(newSecret()), accountId: svc.account.id, profileId: profile.id, origin: null, redirect: null,
      domain: 'example.com', allowedSocial: [platform], instagramLinkMethod: null, createdAt: now, expiresAt: now + 60_000,
    });
    const tokensEncrypted = svc.tokenCipher.encrypt(JSON.stringify(tokens), tokenAad(profile.id, platform, networkUserId));
    const stored = await linkAccount(svc.storage, sessionId, { profileId: profile.id, platform, networkUserId, displayName: 'L', username: 'l', tokensEncrypted, linkedAt: now, sandbox }, now);
    assert.equal(stored.stored, true);
  }

  it('a real linkedin account publishes to the real base with its own token; sandbox accounts stay on the sandbox', async () => {
    // Linked on the real network.
    const real = await svc.client.createProfile('Real linkedin');
    const realProfile = (await svc.storage.accounts.findProfileByKeyHash(svc.account.id, hashSecret(real.profileKey)))!;
    await storeLinked(realProfile, 'linkedin', 'real-member-1', false, { accessToken: 'real-access-token', refreshToken: null, expiresIn: null, obtainedAt: svc.clock() });
    const created = await svc.api('POST', '/post', { body: { post: 'To the real network', platforms: ['linkedin'] }, headers: { 'Profile-Key': real.profileKey } });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    const post = await waitForPost(svc, created.json.id, (p) => p.status !== 'pending', { 'Profile-Key': real.profileKey });
    assert.equal(post.status, 'success', JSON.stringify(post));
    assert.deepEqual(seen.map((call) => [call.method, call.path.split('?')[0], call.authorization]), [['POST', '/rest/posts', 'Bearer real-access-token']]);
    const onSandbox = await svc.sql("SELECT COUNT(*) AS n FROM sandbox_posts WHERE text LIKE 'To the real network%'");
    assert.equal(Number(onSandbox.rows[0]!.n), 0, 'nothing of the real account reaches the sandbox');

    // reddit has no credentials here: it links on the sandbox consent screen and publishes there.
    const session = await svc.client.createLinkSession({ origin: 'https://app.example', allowedSocial: ['reddit'] });
    const { attempt, callbackUrl } = await runUntilCallback(svc, tokenOf(session.url), 'reddit');
    assert.equal((await callback(callbackUrl, attempt.cookie)).data.outcome, 'success');
    const reddit = await svc.api('POST', '/post', { body: { post: 'To the sandbox', platforms: ['reddit'], redditOptions: { title: 'Sandbox', subreddit: 'test' } } });
    assert.equal((await waitForPost(svc, reddit.json.id, (p) => p.status !== 'pending')).status, 'success');
    assert.equal(seen.length, 1, 'the sandbox account never calls the real base');
  });

  it('a linkedin account linked on the sandbox before credentials were set keeps publishing to the sandbox', async () => {
    const profile = await svc.client.createProfile('Sandbox linkedin');
    const stored = (await svc.storage.accounts.findProfileByKeyHash(svc.account.id, hashSecret(profile.profileKey)))!;
    // The sandbox user and tokens its consent screen gave then (made here directly: linkedin has credentials now).
    const now = svc.clock();
    const user = await createSandboxUserWithNewHandle(sandboxStoreOf(svc.storage), 'linkedin', {}, now);
    const issued = await issueUserTokens(sandboxStoreOf(svc.storage), user, 'sandbox', now, null);
    await storeLinked(stored, 'linkedin', user.accountId, true, { accessToken: issued.access_token, refreshToken: issued.refresh_token, expiresIn: null, obtainedAt: now });
    const before = seen.length;
    const created = await svc.api('POST', '/post', { body: { post: 'Still the sandbox', platforms: ['linkedin'] }, headers: { 'Profile-Key': profile.profileKey } });
    const post = await waitForPost(svc, created.json.id, (p) => p.status !== 'pending', { 'Profile-Key': profile.profileKey });
    assert.equal(post.status, 'success', JSON.stringify(post));
    assert.equal(seen.length, before, 'the sandbox account never calls the real base');
    const onSandbox = await svc.sql("SELECT account_id FROM sandbox_posts WHERE text LIKE 'Still the sandbox%'");
    assert.deepEqual(onSandbox.rows.map((row) => row.account_id), [user.accountId]);
  });
});
