import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ErrorCode } from '@social-link-kit/protocol';
import { LinkApiError } from '../../../src/client/index.js';
import { startTestService, tokenOf, type TestService } from '../support/test-service.js';
import { linkAccount } from '../../src/linking/service.js';

const MINUTE = 60_000;

describe('POST /api/profiles/link-sessions', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  it('accepts an empty body and answers exactly the spec 4.6 fields', async () => {
    const { status, json, headers } = await svc.api('POST', '/profiles/link-sessions', { body: {} });
    assert.equal(status, 200);
    assert.deepEqual(Object.keys(json).sort(), ['expiresAt', 'sessionId', 'status', 'title', 'url']);
    assert.equal(json.status, 'success');
    assert.equal(json.title, svc.primaryProfile.title);
    assert.equal(json.expiresAt, new Date(svc.clock() + 5 * MINUTE).toISOString());
    const url = new URL(json.url);
    assert.equal(`${url.origin}${url.pathname}`, svc.config.linkingUrl);
    assert.deepEqual([...url.searchParams.keys()], ['session', 'domain']);
    assert.equal(url.searchParams.get('domain'), 'dev');
    assert.match(url.searchParams.get('session')!, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(headers.get('cache-control'), 'no-store');
    assert.equal(headers.get('referrer-policy'), 'no-referrer');
  });

  it('also accepts a request with no body at all', async () => {
    const response = await fetch(`${svc.url}/api/profiles/link-sessions`, { method: 'POST', headers: { Authorization: `Bearer ${svc.apiKey}` } });
    assert.equal(response.status, 200);
  });

  it('stores only a hash of the token and never logs it', async () => {
    const session = await svc.client.createLinkSession({ origin: 'https://app.example' });
    const token = tokenOf(session.url);
    await fetch(`${svc.url}/link?session=${token}`);
    await fetch(`${svc.url}/api/link/session`, { headers: { Authorization: `Bearer ${token}` } });
    const dump = await svc.databaseDump();
    assert.ok(dump.length > 0);
    assert.ok(dump.includes(session.sessionId), 'the dump holds the session');
    assert.ok(!dump.includes(token), 'token found in the database');
    assert.ok(!svc.logLines.join('\n').includes(token), 'token found in the log');
    const access = svc.logLines.map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.ok(access.some((line) => line.method === 'GET' && line.route === '/api/link/session' && line.status === 200));
  });

  it('sets expiry from expiresIn minutes (1..2880) when the account has max-pack', async () => {
    const one = await svc.client.createLinkSession({ expiresIn: 1 });
    assert.equal(one.expiresAt, new Date(svc.clock() + MINUTE).toISOString());
    const max = await svc.client.createLinkSession({ expiresIn: 2880 });
    assert.equal(max.expiresAt, new Date(svc.clock() + 2880 * MINUTE).toISOString());
  });

  for (const expiresIn of [0, 2881, 1.5, '5', null, -3]) {
    it(`rejects expiresIn ${JSON.stringify(expiresIn)} with 101`, async () => {
      const { status, json } = await svc.api('POST', '/profiles/link-sessions', { body: { expiresIn } });
      assert.equal(status, 400);
      assert.equal(json.code, ErrorCode.badRequest);
      assert.equal(json.status, 'error');
      assert.equal(json.action, 'link session');
      assert.match(json.message, /expiresIn/);
    });
  }

  for (const origin of ['https://app.example', 'https://app.example:8443', 'http://127.0.0.1:5173', 'com.example.app:/linked']) {
    it(`accepts origin ${origin}`, async () => {
      const created = await svc.client.createLinkSession({ origin });
      const read = await svc.client.getLinkSession(created.sessionId);
      assert.equal(read.origin, origin);
    });
  }

  for (const origin of ['*', 'null', '', 'https://app.example/path', 'https://app.example?x=1', 'http://evil.example', 'myapp:', 'myapp://cb', 'javascript:alert(1)', 'ftp://x.example', 42, ['https://a.example']]) {
    it(`rejects origin ${JSON.stringify(origin)} with 505`, async () => {
      const { status, json } = await svc.api('POST', '/profiles/link-sessions', { body: { origin } });
      assert.equal(status, 400);
      assert.equal(json.code, ErrorCode.originInvalid);
    });
  }

  it('rejects an unknown instagramLinkMethod with 400 listing the valid values', async () => {
    const { status, json } = await svc.api('POST', '/profiles/link-sessions', { body: { instagramLinkMethod: 'myspace' } });
    assert.equal(status, 400);
    assert.equal(json.code, ErrorCode.instagramLinkMethodInvalid);
    assert.deepEqual(json.details.validValues, ['instagram', 'facebook']);
    assert.match(json.message, /instagram, facebook/);
  });

  it('keeps instagramLinkMethod for the hosted page', async () => {
    const created = await svc.client.createLinkSession({ instagramLinkMethod: 'facebook' });
    const view = await fetch(`${svc.url}/api/link/session`, { headers: { Authorization: `Bearer ${tokenOf(created.url)}` } });
    assert.equal(((await view.json()) as { instagramLinkMethod: string }).instagramLinkMethod, 'facebook');
  });

  for (const allowedSocial of [['facebook', 'myspace'], [], 'facebook', [1], null]) {
    it(`rejects allowedSocial ${JSON.stringify(allowedSocial)} with 507`, async () => {
      const { status, json } = await svc.api('POST', '/profiles/link-sessions', { body: { allowedSocial } });
      assert.equal(status, 400);
      assert.equal(json.code, ErrorCode.allowedSocialInvalid);
    });
  }

  it('restricts the hosted view to allowedSocial', async () => {
    const created = await svc.client.createLinkSession({ allowedSocial: ['bluesky', 'facebook', 'bluesky'] });
    const read = await svc.client.getLinkSession(created.sessionId);
    assert.deepEqual(read.allowedSocial, ['bluesky', 'facebook']);
    const view = (await (
      await fetch(`${svc.url}/api/link/session`, { headers: { Authorization: `Bearer ${tokenOf(created.url)}` } })
    ).json()) as { networks: { platform: string; method: string }[] };
    assert.deepEqual(view.networks.map((n) => `${n.platform}:${n.method}`), ['bluesky:credentials', 'facebook:oauth']);
  });

  for (const redirect of [
    42,
    true,
    { url: 'https://a.example' },
    'not a url',
    'javascript:alert(1)',
    // Security review: https only (http on loopback), no control characters, no credentials.
    'http://app.example/done',
    'https://app.example/\u0000done',
    'https://app.example/do\nne',
    'https://user:pw@app.example/done',
    `https://app.example/${'x'.repeat(2100)}`,
  ]) {
    it(`rejects redirect ${JSON.stringify(redirect)} with 509`, async () => {
      const { status, json } = await svc.api('POST', '/profiles/link-sessions', { body: { redirect } });
      assert.equal(status, 400);
      assert.equal(json.code, ErrorCode.redirectInvalid);
    });
  }

  it('accepts an http redirect on loopback and an app scheme redirect', async () => {
    for (const redirect of ['http://127.0.0.1:3000/done', 'http://localhost/done', 'com.example.app:/linked']) {
      const { status } = await svc.api('POST', '/profiles/link-sessions', { body: { redirect } });
      assert.equal(status, 200, redirect);
    }
  });

  it('accepts a redirect URL and an ignored privateKey', async () => {
    const { status, json } = await svc.api('POST', '/profiles/link-sessions', {
      body: { redirect: 'https://app.example/done?x=1', privateKey: '-----BEGIN PRIVATE KEY-----…' },
    });
    assert.equal(status, 200);
    assert.equal(JSON.stringify(json).includes('PRIVATE'), false);
  });

  it('rejects an unknown domain with 506 and names the valid ones', async () => {
    const { status, json } = await svc.api('POST', '/profiles/link-sessions', { body: { domain: 'other' } });
    assert.equal(status, 400);
    assert.equal(json.code, ErrorCode.domainInvalid);
    assert.deepEqual(json.details.domains, ['dev']);
  });

  it('rejects unknown fields, malformed JSON, non-objects and oversize bodies with 101', async () => {
    const cases = [
      { body: { expiresln: 5 }, message: /Unknown field\(s\): expiresln/ },
      { rawBody: '{"origin": ', message: /not valid JSON/ },
      { rawBody: '[1,2]', message: /JSON object/ },
      { rawBody: '"text"', message: /JSON object/ },
      { rawBody: JSON.stringify({ redirect: `https://a.example/${'x'.repeat(20_000)}` }), message: /larger than 16384 bytes/ },
    ];
    for (const { message, ...init } of cases) {
      const { status, json } = await svc.api('POST', '/profiles/link-sessions', init);
      assert.equal(status, 400, JSON.stringify(init).slice(0, 80));
      assert.equal(json.code, ErrorCode.badRequest);
      assert.match(json.message, message);
    }
  });

  it('the client throws LinkApiError carrying the numeric code', async () => {
    await assert.rejects(
      svc.client.createLinkSession({ allowedSocial: ['myspace' as 'facebook'] }),
      (error: unknown) => error instanceof LinkApiError && error.code === 507 && error.status === 400,
    );
  });
});

describe('link-session account settings', () => {
  it('without the max-pack add-on, expiresIn is refused with 504 (403) and the default still works', async () => {
    const svc = await startTestService({ account: { maxPack: false } });
    try {
      const { status, json } = await svc.api('POST', '/profiles/link-sessions', { body: { expiresIn: 60 } });
      assert.equal(status, 403);
      assert.equal(json.code, ErrorCode.expiresInNeedsMaxPack);
      assert.equal((await svc.api('POST', '/profiles/link-sessions', { body: {} })).status, 200);
    } finally {
      await svc.close();
    }
  });

  it('with several linking domains, domain is required and picks the URL domain', async () => {
    const svc = await startTestService({ account: { domains: ['acme', 'acme-eu'] } });
    try {
      const missing = await svc.api('POST', '/profiles/link-sessions', { body: {} });
      assert.equal(missing.json.code, ErrorCode.domainInvalid);
      const created = await svc.client.createLinkSession({ domain: 'acme-eu' });
      assert.equal(new URL(created.url).searchParams.get('domain'), 'acme-eu');
    } finally {
      await svc.close();
    }
  });

  it('enforces the account origin allowlist by exact match', async () => {
    const svc = await startTestService({ account: { allowedOrigins: ['https://app.example'] } });
    try {
      assert.equal((await svc.api('POST', '/profiles/link-sessions', { body: { origin: 'https://app.example' } })).status, 200);
      for (const origin of ['https://evil.example', 'https://app.example.evil.example', 'https://sub.app.example']) {
        const { json } = await svc.api('POST', '/profiles/link-sessions', { body: { origin } });
        assert.equal(json.code, ErrorCode.originInvalid, origin);
      }
    } finally {
      await svc.close();
    }
  });
});

describe('reading, revoking and expiring link sessions', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  const view = (token: string) =>
    fetch(`${svc.url}/api/link/session`, { headers: { Authorization: `Bearer ${token}` } }).then(async (r) => ({
      status: r.status,
      json: (await r.json()) as Record<string, any>,
    }));

  it('reads a fresh session with no completions', async () => {
    const created = await svc.client.createLinkSession({ origin: 'https://app.example', allowedSocial: ['facebook', 'twitter'] });
    const read = await svc.client.getLinkSession(created.sessionId);
    assert.equal(read.state, 'active');
    assert.equal(read.expiresAt, created.expiresAt);
    assert.equal(read.completedAt, null);
    assert.equal(read.lastCompletedAt, null);
    assert.deepEqual(read.completedNetworks, []);
    assert.equal(read.revokedAt, null);
    assert.equal(read.refId, svc.primaryProfile.refId);
  });

  it('reports completions: first and last time and the networks in order', async () => {
    const created = await svc.client.createLinkSession();
    const link = (platform: 'twitter' | 'facebook') =>
      linkAccount(svc.storage, 
        created.sessionId,
        { profileId: svc.primaryProfile.id, platform, networkUserId: `u-${platform}`, displayName: 'Ada', username: 'ada', tokensEncrypted: null, linkedAt: svc.clock() },
        svc.clock(),
      );
    const first = svc.clock();
    assert.deepEqual((await link('twitter')).stored, true);
    svc.clock.advance(30_000);
    await link('facebook');
    svc.clock.advance(30_000);
    await link('twitter');
    const read = await svc.client.getLinkSession(created.sessionId);
    assert.equal(read.completedAt, new Date(first).toISOString());
    assert.equal(read.lastCompletedAt, new Date(first + 60_000).toISOString());
    assert.deepEqual(read.completedNetworks, ['twitter', 'facebook']);
    const user = await svc.client.getUser();
    assert.deepEqual(user.activeSocialAccounts.sort(), ['facebook', 'twitter']);
  });

  it('revokes at once; the link stops working; revoking again keeps the first time', async () => {
    const created = await svc.client.createLinkSession();
    const token = tokenOf(created.url);
    assert.equal((await view(token)).status, 200);
    const revoked = await svc.client.revokeLinkSession(created.sessionId);
    svc.clock.advance(1000);
    const again = await svc.client.revokeLinkSession(created.sessionId);
    assert.equal(again.revokedAt, revoked.revokedAt);
    assert.equal((await svc.client.getLinkSession(created.sessionId)).state, 'revoked');
    const after = await view(token);
    assert.equal(after.status, 401);
    assert.equal(after.json.code, ErrorCode.linkInvalid);
    const stored = await linkAccount(svc.storage, 
      created.sessionId,
      { profileId: svc.primaryProfile.id, platform: 'reddit', networkUserId: 'r', displayName: null, username: null, tokensEncrypted: null, linkedAt: svc.clock() },
      svc.clock(),
    );
    assert.deepEqual(stored, { stored: false, reason: 'revoked' });
  });

  it('expires at expiresAt; unknown, expired and revoked tokens all get the same answer', async () => {
    const expiring = await svc.client.createLinkSession({ expiresIn: 1 });
    const revoked = await svc.client.createLinkSession({ expiresIn: 10 });
    await svc.client.revokeLinkSession(revoked.sessionId);
    svc.clock.advance(59_999);
    assert.equal((await view(tokenOf(expiring.url))).status, 200);
    svc.clock.advance(1);
    const answers = await Promise.all([
      view(tokenOf(expiring.url)),
      view(tokenOf(revoked.url)),
      view('A'.repeat(43)),
      view(''),
    ]);
    for (const answer of answers) {
      assert.equal(answer.status, 401);
      assert.deepEqual(answer.json, answers[0]!.json);
    }
    assert.equal(answers[0]!.json.code, ErrorCode.linkInvalid);
    assert.equal((await svc.client.getLinkSession(expiring.sessionId)).state, 'expired');
  });

  it('reads and revokes a session only with the key of the profile it links (404 with another profile\'s, same account)', async () => {
    const profileKey = async (title: string) => {
      const created = await svc.api('POST', '/profiles', { body: { title } });
      assert.equal(created.status, 200, JSON.stringify(created.json));
      return created.json.profileKey as string;
    };
    const [own, other] = [await profileKey('Own profile'), await profileKey('Other profile')];
    const session = await svc.api('POST', '/profiles/link-sessions', { body: {}, headers: { 'Profile-Key': own } });
    const path = `/profiles/link-sessions/${session.json.sessionId}`;
    for (const headers of [{ 'Profile-Key': other }, {}] as Record<string, string>[]) {
      const read = await svc.api('GET', path, { headers });
      assert.deepEqual([read.status, read.json.status, read.json.code], [404, 'error', 101], JSON.stringify(read.json));
      assert.equal((await svc.api('DELETE', path, { headers })).status, 404);
    }
    assert.equal((await svc.api('GET', path, { headers: { 'Profile-Key': own } })).json.state, 'active', 'not revoked by the other keys');
    assert.equal((await svc.api('DELETE', path, { headers: { 'Profile-Key': own } })).status, 200);
  });

  it('answers 404 for an unknown session id, and for another account\'s session', async () => {
    const other = await startTestService();
    try {
      const theirs = await other.client.createLinkSession();
      for (const id of ['ls_nope', theirs.sessionId]) {
        await assert.rejects(svc.client.getLinkSession(id), (e: unknown) => e instanceof LinkApiError && e.status === 404);
        await assert.rejects(svc.client.revokeLinkSession(id), (e: unknown) => e instanceof LinkApiError && e.status === 404);
      }
      assert.equal((await other.client.getLinkSession(theirs.sessionId)).state, 'active');
    } finally {
      await other.close();
    }
  });
});

describe('redirect and the origin allowlist', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ account: { allowedOrigins: ['https://app.example', 'com.example.app:/linked'] } });
  });
  after(() => svc.close());

  it('accepts a redirect on an allowlisted origin or app scheme', async () => {
    for (const redirect of ['https://app.example/done?x=1', 'com.example.app:/other']) {
      const { status } = await svc.api('POST', '/profiles/link-sessions', { body: { origin: 'https://app.example', redirect } });
      assert.equal(status, 200, redirect);
    }
  });

  it('refuses a redirect elsewhere with 509 and the allowlist', async () => {
    for (const redirect of ['https://evil.example/done', 'https://app.example.evil.test/', 'org.evil.app:/linked', 'http://127.0.0.1/x']) {
      const { status, json } = await svc.api('POST', '/profiles/link-sessions', { body: { origin: 'https://app.example', redirect } });
      assert.equal(status, 400, redirect);
      assert.equal(json.code, ErrorCode.redirectInvalid, redirect);
      assert.deepEqual(json.details.allowedOrigins, ['https://app.example', 'com.example.app:/linked']);
    }
  });
});
