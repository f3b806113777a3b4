import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LinkApiError, createLinkClient } from '../../../src/client/index.js';
import { ErrorCode, UNLINKABLE_NETWORKS } from '@social-link-kit/protocol';
import { newSecret } from '../../src/core/tokens.js';
import { startTestService, tokenOf, type TestService } from '../support/test-service.js';
import { linkAccount } from '../../src/linking/service.js';

describe('API key and Profile-Key', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  for (const authorization of [undefined, '', 'Bearer ', 'Bearer wrong-key', `Basic ${'x'.repeat(10)}`, 'bearer sk_x']) {
    it(`rejects Authorization ${JSON.stringify(authorization)} with 401 / 102`, async () => {
      const headers: Record<string, string> = authorization === undefined ? {} : { Authorization: authorization };
      const response = await fetch(`${svc.url}/api/profiles/link-sessions`, { method: 'POST', headers, body: '{}' });
      assert.equal(response.status, 401);
      const json = (await response.json()) as Record<string, unknown>;
      assert.deepEqual(Object.keys(json).sort(), ['action', 'code', 'message', 'status']);
      assert.equal(json.code, ErrorCode.apiKeyInvalid);
      assert.equal(json.status, 'error');
    });
  }

  it('rejects an unknown Profile-Key with 404 / 103, on every API route', async () => {
    for (const [method, path] of [
      ['POST', '/profiles/link-sessions'],
      ['GET', '/user'],
      ['DELETE', '/profiles/social'],
      ['DELETE', '/profiles'],
    ] as const) {
      const { status, json } = await svc.api(method, path, { headers: { 'Profile-Key': 'pk_unknown' }, body: method === 'GET' ? undefined : {} });
      assert.equal(status, 404, path);
      assert.equal(json.code, ErrorCode.profileNotFound, path);
    }
  });

  it("refuses a Profile-Key that belongs to another account's API key", async () => {
    const other = await startTestService();
    try {
      const theirs = await other.client.createProfile('Theirs');
      const { status, json } = await svc.api('GET', '/user', { headers: { 'Profile-Key': theirs.profileKey } });
      assert.equal(status, 404);
      assert.equal(json.code, ErrorCode.profileNotFound);
    } finally {
      await other.close();
    }
  });

  it('does not accept a link token as an API key, nor an API key as a link token', async () => {
    const created = await svc.client.createLinkSession();
    const asKey = createLinkClient({ baseUrl: `${svc.url}/api`, apiKey: tokenOf(created.url) });
    await assert.rejects(asKey.getUser(), (e: unknown) => e instanceof LinkApiError && e.code === ErrorCode.apiKeyInvalid);
    const response = await fetch(`${svc.url}/api/link/session`, { headers: { Authorization: `Bearer ${svc.apiKey}` } });
    assert.equal(response.status, 401);
  });

  it('answers unknown routes with the envelope', async () => {
    const { status, json } = await svc.api('GET', '/nothing-here');
    assert.equal(status, 404);
    assert.equal(json.status, 'error');
    assert.equal(json.code, ErrorCode.badRequest);
  });
});

describe('user profiles', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  it('creates, lists and deletes profiles; the Profile-Key is shown once and works', async () => {
    const created = await svc.client.createProfile('  Ada Shop  ');
    assert.equal(created.title, 'Ada Shop');
    assert.match(created.profileKey, /^pk_[A-Za-z0-9_-]{43}$/);
    const listed = await svc.client.listProfiles();
    assert.deepEqual(listed.profiles.map((p) => p.refId), [created.refId]);
    assert.equal(JSON.stringify(listed).includes(created.profileKey), false);

    const session = await svc.client.createLinkSession({}, { profileKey: created.profileKey });
    assert.equal(session.title, 'Ada Shop');
    const user = await svc.client.getUser({ profileKey: created.profileKey });
    assert.equal(user.refId, created.refId);

    const deleted = await svc.client.deleteProfile(created.profileKey);
    assert.equal(deleted.refId, created.refId);
    assert.deepEqual((await svc.client.listProfiles()).profiles, []);
    await assert.rejects(svc.client.getUser({ profileKey: created.profileKey }), (e: unknown) => e instanceof LinkApiError && e.code === 103);
    // The deleted profile's open sessions are revoked with it.
    assert.equal((await svc.client.getLinkSession(session.sessionId)).state, 'revoked');
  });

  for (const body of [{}, { title: '' }, { title: '   ' }, { title: 7 }, { title: 'x'.repeat(201) }]) {
    it(`rejects profile ${JSON.stringify(body).slice(0, 40)} with 101`, async () => {
      const { status, json } = await svc.api('POST', '/profiles', { body });
      assert.equal(status, 400);
      assert.equal(json.code, ErrorCode.badRequest);
      assert.match(json.message, /title/);
    });
  }

  it('refuses to delete the Primary Profile', async () => {
    const { status, json } = await svc.api('DELETE', '/profiles');
    assert.equal(status, 400);
    assert.equal(json.code, ErrorCode.badRequest);
  });
});

describe('DELETE /api/profiles/social and GET /api/user', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  for (const body of [{}, { platform: '' }, { platform: 'myspace' }, { platform: 'pinterest' }, { platform: ['twitter'] }, { platform: 3 }]) {
    it(`answers ${JSON.stringify(body)} with 400 / 163`, async () => {
      const { status, json } = await svc.api('DELETE', '/profiles/social', { body });
      assert.equal(status, 400);
      assert.equal(json.code, ErrorCode.platformInvalid);
      assert.equal(json.action, 'unlink');
      assert.deepEqual(json.details.validValues, [...UNLINKABLE_NETWORKS]);
    });
  }

  it('answers 163 for a request with no body', async () => {
    const response = await fetch(`${svc.url}/api/profiles/social`, { method: 'DELETE', headers: { Authorization: `Bearer ${svc.apiKey}` } });
    assert.equal(response.status, 400);
    assert.equal(((await response.json()) as { code: number }).code, 163);
  });

  it('answers 200 when the network is not linked', async () => {
    const result = await svc.client.unlinkSocial('tiktok');
    assert.deepEqual(result, { status: 'success', platform: 'tiktok', refId: svc.primaryProfile.refId });
  });

  it('unlinks only the profile selected by Profile-Key', async () => {
    const profile = await svc.client.createProfile('Second');
    const stored = await svc.storage.accounts.findProfileByKeyHash(svc.account.id, (await import('../../src/core/tokens.js')).hashSecret(profile.profileKey));
    const session = await svc.client.createLinkSession({}, { profileKey: profile.profileKey });
    const primarySession = await svc.client.createLinkSession();
    const account = (profileId: string) => ({
      profileId,
      platform: 'youtube' as const,
      networkUserId: 'UC123',
      displayName: 'Ada Channel',
      username: '@ada',
      tokensEncrypted: null,
      linkedAt: svc.clock(),
    });
    await linkAccount(svc.storage, session.sessionId, account(stored!.id), svc.clock());
    await linkAccount(svc.storage, primarySession.sessionId, account(svc.primaryProfile.id), svc.clock());

    const before = await svc.client.getUser({ profileKey: profile.profileKey });
    assert.deepEqual(
      before.displayNames.map(({ health: _health, ...account }) => account),
      [{ platform: 'youtube', displayName: 'Ada Channel', username: '@ada', id: 'UC123', linkedAt: new Date(svc.clock()).toISOString() }],
    );
    const result = await svc.client.unlinkSocial('youtube', { profileKey: profile.profileKey });
    assert.equal(result.refId, profile.refId);
    assert.deepEqual((await svc.client.getUser({ profileKey: profile.profileKey })).activeSocialAccounts, []);
    assert.deepEqual((await svc.client.getUser()).activeSocialAccounts, ['youtube']);
  });
});

describe('secrets', () => {
  it('are 43 base64url characters and do not repeat over 10,000 draws', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 10_000; i++) {
      const secret = newSecret();
      assert.match(secret, /^[A-Za-z0-9_-]{43}$/);
      seen.add(secret);
    }
    assert.equal(seen.size, 10_000);
  });
});
