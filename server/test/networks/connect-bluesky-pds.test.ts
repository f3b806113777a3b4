/**
 * bluesky against a separate PDS on loopback (`BLUESKY_PDS_URL`), the configuration a real deployment uses: a
 * tiny real HTTP server implementing com.atproto.server.createSession, so the service's outbound call, its error
 * mapping and what it keeps are checked end to end. The app password must reach the PDS and nothing else.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { ErrorCode } from '@social-link-kit/protocol';
import { startTestService, tokenOf, type TestService } from '../support/test-service.js';

const HANDLE = 'ada.example.social';
const APP_PASSWORD = 'abcd-efgh-ijkl-mnop';
const DID = 'did:plc:loopbackpdsada';
const ACCESS_JWT = 'pds-access-jwt-7f3c9a1b2d4e';
const REFRESH_JWT = 'pds-refresh-jwt-0e9d8c7b6a5f';

interface PdsCall {
  path: string;
  body: Record<string, unknown>;
}

/** What the PDS answers next: normal behaviour, a server error, or two-factor required. */
type PdsMode = 'normal' | 'error500' | 'twoFactor';

async function startLoopbackPds() {
  const calls: PdsCall[] = [];
  let mode: PdsMode = 'normal';
  const readBody = async (request: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
  };
  const server: Server = createServer(async (request, response) => {
    const path = new URL(request.url ?? '/', 'http://pds').pathname;
    const body = request.method === 'POST' ? await readBody(request) : {};
    calls.push({ path, body });
    const send = (status: number, json: unknown) => response.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(json));
    if (path !== '/xrpc/com.atproto.server.createSession' || request.method !== 'POST') return send(404, { error: 'MethodNotImplemented' });
    if (mode === 'error500') return send(500, { error: 'InternalServerError', message: 'database unavailable' });
    if (mode === 'twoFactor') return send(401, { error: 'AuthFactorTokenRequired', message: 'A sign in code has been sent to your email address' });
    if (body.identifier !== HANDLE || body.password !== APP_PASSWORD) {
      return send(401, { error: 'AuthenticationRequired', message: 'Invalid identifier or password' });
    }
    return send(200, { did: DID, handle: HANDLE, accessJwt: ACCESS_JWT, refreshJwt: REFRESH_JWT, active: true });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    setMode(next: PdsMode) {
      mode = next;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('bluesky through a PDS at BLUESKY_PDS_URL', () => {
  let pds: Awaited<ReturnType<typeof startLoopbackPds>>;
  let svc: TestService;
  before(async () => {
    pds = await startLoopbackPds();
    svc = await startTestService({ env: { BLUESKY_PDS_URL: pds.url } });
  });
  after(async () => {
    await svc.close();
    await pds.close();
  });
  beforeEach(() => {
    pds.calls.length = 0;
    pds.setMode('normal');
  });

  const connect = async (token: string, body: unknown) => {
    const response = await fetch(`${svc.url}/api/link/connect/bluesky`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, text, json: JSON.parse(text) as Record<string, any> };
  };
  const newToken = async () => tokenOf((await svc.client.createLinkSession({ origin: 'https://app.example' })).url);

  it('checks the app password once with createSession and keeps only the identity and encrypted PDS tokens', async () => {
    const token = await newToken();
    const result = await connect(token, { handle: `@${HANDLE}`, appPassword: APP_PASSWORD });
    assert.equal(result.status, 200, result.text);
    assert.ok(!result.text.includes(APP_PASSWORD), 'the response echoes the app password');
    assert.deepEqual(pds.calls, [{ path: '/xrpc/com.atproto.server.createSession', body: { identifier: HANDLE, password: APP_PASSWORD } }]);

    const account = await svc.storage.linking.findSocialAccount(svc.primaryProfile.id, 'bluesky');
    assert.equal(account?.networkUserId, DID);
    assert.equal(account?.username, HANDLE);
    // SQLite file bytes or every PostgreSQL table, whichever backend the suite runs on.
    const dump = await svc.databaseDump();
    assert.ok(dump.includes(DID), 'the dump should hold the stored identity');
    for (const secret of [APP_PASSWORD, ACCESS_JWT, REFRESH_JWT]) {
      assert.ok(!dump.includes(secret), `${secret} found in the database`);
      assert.ok(!svc.logLines.join('\n').includes(secret), `${secret} found in the log`);
    }
  });

  it('a wrong app password is 513 "not correct", echoes nothing, stores nothing', async () => {
    const token = await newToken();
    const before = await svc.storage.linking.findSocialAccount(svc.primaryProfile.id, 'bluesky');
    const result = await connect(token, { handle: HANDLE, appPassword: 'wrong-pass-word' });
    assert.equal(result.status, 400);
    assert.equal(result.json.code, ErrorCode.connectFailed);
    assert.equal(result.json.action, 'link session');
    assert.ok(!result.text.includes('wrong-pass-word'));
    assert.equal(pds.calls.length, 1);
    assert.deepEqual(await svc.storage.linking.findSocialAccount(svc.primaryProfile.id, 'bluesky'), before);
    assert.ok(!svc.logLines.join('\n').includes('wrong-pass-word'));
  });

  it('an account that needs a sign-in code (2FA) is refused as credentials, with 513', async () => {
    pds.setMode('twoFactor');
    const result = await connect(await newToken(), { handle: HANDLE, appPassword: APP_PASSWORD });
    assert.equal(result.json.code, ErrorCode.connectFailed);
  });

  it('a PDS failure is 513 with a retryable message, not a crash', async () => {
    pds.setMode('error500');
    const result = await connect(await newToken(), { handle: HANDLE, appPassword: APP_PASSWORD });
    assert.notEqual(result.status, 500);
    assert.equal(result.json.code, ErrorCode.connectFailed);
    assert.ok(!result.text.includes('database unavailable'), "the PDS's internal error text is not passed through");
  });

  it('a revoked link is refused with 501 before the password goes anywhere', async () => {
    const session = await svc.client.createLinkSession({ origin: 'https://app.example' });
    await svc.client.revokeLinkSession(session.sessionId);
    const result = await connect(tokenOf(session.url), { handle: HANDLE, appPassword: APP_PASSWORD });
    assert.equal(result.status, 401);
    assert.equal(result.json.code, ErrorCode.linkInvalid);
    assert.equal(pds.calls.length, 0);
  });
});

describe('bluesky with the PDS unreachable', () => {
  it('answers 513 (the server could not be reached), never 500', async () => {
    const pds = await startLoopbackPds();
    const deadUrl = pds.url;
    await pds.close();
    const svc = await startTestService({ env: { BLUESKY_PDS_URL: deadUrl } });
    try {
      const token = tokenOf((await svc.client.createLinkSession()).url);
      const response = await fetch(`${svc.url}/api/link/connect/bluesky`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ handle: HANDLE, appPassword: APP_PASSWORD }),
      });
      const json = (await response.json()) as { code: number };
      assert.notEqual(response.status, 500);
      assert.equal(json.code, ErrorCode.connectFailed);
    } finally {
      await svc.close();
    }
  });
});
