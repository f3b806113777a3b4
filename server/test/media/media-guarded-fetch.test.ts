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
    // Chunked, so no declared length: the limit is met while reading.
    if (path === '/big-chunked') return void (response.write(Buffer.alloc(1000)), response.end(Buffer.alloc(1000)));
    // Headers and part of the body, then nothing: the deadline meets the body.
    if (path === '/hang-body') return void (response.writeHead(200, { 'content-length': '10' }), response.write('12345'), pending.add(() => response.end('67890')));
    if (path === '/echo-body') {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      return void request.on('end', () => response.end(JSON.stringify({ type: request.headers['content-type'] ?? null, length: request.headers['content-length'] ?? null, body: Buffer.concat(chunks).toString('base64') })));
    }
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
    // The deadline covers the body too.
    assert.equal((await failure(guarded({ allowPrivateTargets: true })(`${origin}/hang-body`, { timeoutMs: 200 }))).kind, 'timeout');
  });

  it("ends a request when the caller's own signal aborts, before or during it, and tells it from the deadline", async () => {
    const fetch = guarded({ allowPrivateTargets: true });
    assert.equal((await failure(fetch(`${origin}/hello`, { signal: AbortSignal.abort() }))).kind, 'aborted');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    assert.equal((await failure(fetch(`${origin}/hang`, { signal: controller.signal, timeoutMs: 5000 }))).kind, 'aborted');
    const midBody = new AbortController();
    setTimeout(() => midBody.abort(), 100);
    assert.equal((await failure(fetch(`${origin}/hang-body`, { signal: midBody.signal, timeoutMs: 5000 }))).kind, 'aborted');
    // A signal that never fires leaves the answer alone.
    assert.equal(await (await fetch(`${origin}/hello`, { signal: new AbortController().signal })).text(), 'hello');
  });

  it('cuts a chunked body once it passes the limit', async () => {
    assert.equal((await failure(guarded({ allowPrivateTargets: true })(`${origin}/big-chunked`))).kind, 'too-large');
    const fits = await guarded({ allowPrivateTargets: true })(`${origin}/big-chunked`, { maxBytes: 2000 });
    assert.equal((await fits.arrayBuffer()).byteLength, 2000);
  });

  it('sends each kind of body with the bytes and content type fetch would send', async () => {
    const fetch = guarded({ allowPrivateTargets: true, maxBytes: 100_000 });
    const bodies: (() => NonNullable<RequestInit['body']>)[] = [
      () => JSON.stringify({ text: 'héllo ✓' }),
      () => new TextEncoder().encode('bytes'),
      () => Buffer.from('a buffer'),
      () => new TextEncoder().encode('an array buffer').buffer,
      () => new URLSearchParams({ a: '1', b: 'two words' }),
      () => new Blob(['a blob'], { type: 'text/x-test' }),
    ];
    for (const body of bodies) {
      const expected = new Response(body());
      const wanted = { type: expected.headers.get('content-type'), body: Buffer.from(await expected.arrayBuffer()) };
      const echoed = (await (await fetch(`${origin}/echo-body`, { method: 'POST', body: body() })).json()) as { type: string | null; length: string; body: string };
      assert.deepEqual({ type: echoed.type, body: Buffer.from(echoed.body, 'base64') }, wanted, String(wanted.body));
      assert.equal(Number(echoed.length), wanted.body.byteLength);
    }
    // A content type the caller set is kept.
    const typed = (await (await fetch(`${origin}/echo-body`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' })).json()) as { type: string };
    assert.equal(typed.type, 'application/json');
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
