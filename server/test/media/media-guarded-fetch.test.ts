/**
 * The guarded fetch against a real loopback HTTP server: private targets refused unless configured or the exact
 * origin is allowed, names resolving inside refused, redirects judged again, size and time limits.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createGuardedFetch, GuardedFetchError, type GuardedFetchOptions } from '../../src/core/guarded-fetch.js';

let server: Server;
let origin = '';
const pending = new Set<() => void>();

before(async () => {
  server = createServer((request, response) => {
    const path = request.url ?? '/';
    if (path === '/hello') return void response.end('hello');
    if (path === '/to-hello') return void response.writeHead(302, { location: '/hello' }).end();
    if (path === '/to-private') return void response.writeHead(302, { location: 'http://10.1.2.3/secret' }).end();
    if (path === '/to-other-loopback') return void response.writeHead(307, { location: `http://127.0.0.2:${port()}/hello` }).end();
    if (path === '/loop') return void response.writeHead(302, { location: '/loop' }).end();
    if (path === '/big') return void response.end(Buffer.alloc(4096));
    if (path === '/echo-auth') return void response.end(request.headers.authorization ?? 'none');
    if (path === '/hang') return void pending.add(() => response.end());
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${port()}`;
});
after(async () => {
  for (const release of pending) release();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
function port() {
  return (server.address() as AddressInfo).port;
}

function guarded(overrides: Partial<GuardedFetchOptions> = {}) {
  return createGuardedFetch({ allowPrivateTargets: false, timeoutMs: 5000, maxBytes: 1024, maxRedirects: 3, ...overrides });
}

async function failure(promise: Promise<unknown>): Promise<GuardedFetchError> {
  const error = await promise.then(
    () => assert.fail('expected a refusal'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof GuardedFetchError, String(error));
  return error;
}

describe('guarded fetch', () => {
  it('refuses loopback, private and link-local targets by default, before connecting', async () => {
    const fetch = guarded();
    for (const url of [`${origin}/hello`, 'http://10.0.0.1/', 'http://169.254.169.254/latest/meta-data', 'http://[::1]/', 'http://localhost/']) {
      const error = await failure(fetch(url));
      assert.equal(error.kind, 'refused', url);
    }
  });

  it('refuses a public-looking name that resolves to a private address', async () => {
    const fetch = guarded({ resolveHost: async () => [{ address: '192.168.1.10', family: 4 }] });
    const error = await failure(fetch('http://media.example.com/a.jpg'));
    assert.equal(error.kind, 'refused');
    assert.match(error.message, /192\.168\.1\.10/);
  });

  it('fetches a loopback target when private targets are allowed by configuration', async () => {
    const response = await guarded({ allowPrivateTargets: true })(`${origin}/hello`);
    assert.equal(response.status, 200);
    assert.equal(await response.text(), 'hello');
  });

  it('allows an exact allowed origin, follows its same-origin redirect, and judges every new location again', async () => {
    const fetch = guarded({ allowedOrigins: () => [origin] });
    const response = await fetch(`${origin}/to-hello`);
    assert.equal(await response.text(), 'hello');
    assert.equal(response.url, `${origin}/hello`);
    assert.equal((await failure(fetch(`${origin}/to-private`))).kind, 'refused');
    assert.equal((await failure(fetch(`${origin}/to-other-loopback`))).kind, 'refused');
  });

  it('stops after the redirect limit', async () => {
    const error = await failure(guarded({ allowPrivateTargets: true })(`${origin}/loop`));
    assert.equal(error.kind, 'too-many-redirects');
  });

  it('cuts a body larger than the limit', async () => {
    const error = await failure(guarded({ allowPrivateTargets: true })(`${origin}/big`));
    assert.equal(error.kind, 'too-large');
    const fits = await guarded({ allowPrivateTargets: true })(`${origin}/big`, { maxBytes: 8192 });
    assert.equal((await fits.arrayBuffer()).byteLength, 4096);
  });

  it('ends a request that outlives its time limit', async () => {
    const error = await failure(guarded({ allowPrivateTargets: true })(`${origin}/hang`, { timeoutMs: 200 }));
    assert.equal(error.kind, 'timeout');
  });

  it('sends the Authorization header to the origin it was meant for', async () => {
    const response = await guarded({ allowPrivateTargets: true })(`${origin}/echo-auth`, { headers: { authorization: 'Bearer t' } });
    assert.equal(await response.text(), 'Bearer t');
  });

  it('refuses non-http URLs and URLs with credentials', async () => {
    const fetch = guarded({ allowPrivateTargets: true });
    assert.equal((await failure(fetch('file:///etc/passwd'))).kind, 'bad-url');
    assert.equal((await failure(fetch(`http://user:pw@127.0.0.1:${port()}/hello`))).kind, 'bad-url');
  });
});
