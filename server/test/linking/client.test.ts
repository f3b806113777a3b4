import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { CLIENT_ERROR_CODES, LinkApiError, createLinkClient } from '../../../src/client/index.js';

/** A loopback server that answers whatever the test sets, to see how the client treats odd answers. */
describe('createLinkClient against unexpected answers', () => {
  let server: Server;
  let base = '';
  let answer: { status: number; body: string } = { status: 200, body: '{}' };
  const seen: { method: string; url: string; headers: Record<string, unknown>; body: string }[] = [];

  before(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
        res.writeHead(answer.status, { 'Content-Type': 'application/json' }).end(answer.body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const client = () => createLinkClient({ baseUrl: base, apiKey: 'sk_test' });

  it('sends the API key, Profile-Key and JSON body', async () => {
    answer = { status: 200, body: JSON.stringify({ status: 'success', platform: 'twitter', refId: 'r1' }) };
    await client().unlinkSocial('twitter', { profileKey: 'pk_1' });
    const request = seen.at(-1)!;
    assert.equal(request.method, 'DELETE');
    assert.equal(request.url, '/api/profiles/social');
    assert.equal(request.headers.authorization, 'Bearer sk_test');
    assert.equal(request.headers['profile-key'], 'pk_1');
    assert.deepEqual(JSON.parse(request.body), { platform: 'twitter' });
  });

  it('encodes session ids in paths', async () => {
    answer = { status: 404, body: JSON.stringify({ status: 'error', action: 'link session', code: 101, message: 'nope' }) };
    await assert.rejects(client().getLinkSession('a/../b'));
    assert.equal(seen.at(-1)!.url, '/api/profiles/link-sessions/a%2F..%2Fb');
  });

  it('turns an error envelope into LinkApiError with code, status, details and retryAvailable', async () => {
    answer = {
      status: 429,
      body: JSON.stringify({ status: 'error', action: 'link session', code: 510, message: 'Slow down', details: { retryAfter: 3 }, retryAvailable: true }),
    };
    await assert.rejects(client().createLinkSession(), (error: unknown) => {
      assert.ok(error instanceof LinkApiError);
      assert.equal(error.status, 429);
      assert.equal(error.code, 510);
      assert.equal(error.action, 'link session');
      assert.deepEqual(error.details, { retryAfter: 3 });
      assert.equal(error.retryAvailable, true);
      return true;
    });
  });

  it('rejects a 200 whose body is not the documented shape', async () => {
    answer = { status: 200, body: JSON.stringify({ status: 'success', sessionId: 'ls_1' }) };
    await assert.rejects(client().createLinkSession(), (error: unknown) => error instanceof LinkApiError && error.code === CLIENT_ERROR_CODES.invalidResponse);
  });

  it('rejects a non-JSON answer', async () => {
    answer = { status: 502, body: '<html>Bad gateway</html>' };
    await assert.rejects(client().getUser(), (error: unknown) => error instanceof LinkApiError && error.status === 502 && error.code === CLIENT_ERROR_CODES.invalidResponse);
  });

  it('reports a refused connection as a network error with retryAvailable', async () => {
    const offline = createLinkClient({ baseUrl: 'http://127.0.0.1:1/api', apiKey: 'sk_test' });
    await assert.rejects(offline.getUser(), (error: unknown) => error instanceof LinkApiError && error.code === CLIENT_ERROR_CODES.network && error.retryAvailable);
  });
});
