/**
 * Issue 31: the guarded fetch keeps connections alive per origin (a second call to a network reuses the first
 * call's TCP connection) and still judges every request's target: a pooled connection never lets a refused
 * address through. Real loopback HTTP server, counting the connections it accepts.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { createGuardedFetch, GuardedFetchError } from '../../src/core/guarded-fetch.js';

let server: Server;
let origin = '';
let connections = 0;
let allowed: string[] = [];

before(async () => {
  server = createServer((request, response) => response.end(`hello ${request.url}`));
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  allowed = [origin];
});
after(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const guarded = () => createGuardedFetch({ allowPrivateTargets: false, allowedOrigins: () => allowed, timeoutMs: 5000, maxBytes: 1024, maxRedirects: 3 });

async function refusal(promise: Promise<unknown>): Promise<GuardedFetchError> {
  const error = await promise.then(
    () => assert.fail('expected a refusal'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof GuardedFetchError, String(error));
  return error;
}

test('a second call to the same origin reuses the connection; sequential POSTs too', async () => {
  const fetch = guarded();
  const before = connections;
  assert.equal(await (await fetch(`${origin}/one`)).text(), 'hello /one');
  assert.equal(await (await fetch(`${origin}/two`)).text(), 'hello /two');
  assert.equal(await (await fetch(`${origin}/three`, { method: 'POST', body: JSON.stringify({ a: 1 }) })).text(), 'hello /three');
  assert.equal(connections - before, 1, 'one TCP connection for three calls');
});

test('with a pooled loopback connection open, a private or not-allowed target is still refused before connecting', async () => {
  const fetch = guarded();
  await (await fetch(`${origin}/warm`)).text();
  const before = connections;
  // The same loopback address on another port, its name, and a private address: none is an allowed origin.
  const otherPort = `http://127.0.0.1:${(server.address() as AddressInfo).port + 1}/x`;
  for (const url of [otherPort, `http://localhost:${(server.address() as AddressInfo).port}/x`, 'http://10.0.0.1/x']) {
    assert.equal((await refusal(fetch(url))).kind, 'refused', url);
  }
  assert.equal(connections, before, 'nothing reached the server');
  // The same origin, once no longer allowed, is refused too, though a pooled connection to it is open.
  allowed = [];
  try {
    assert.equal((await refusal(fetch(`${origin}/x`))).kind, 'refused');
  } finally {
    allowed = [origin];
  }
  assert.equal(connections, before, 'nothing reached the server');
});

test('an idle connection is dropped before the server would close it, so the next call never meets a reset', async () => {
  // Keep-Alive: timeout=2 → the client keeps the socket 1 s; the server keeps it 2 s. At 1.3 s a new connection is opened.
  server.keepAliveTimeout = 2_000;
  try {
    const fetch = guarded();
    const before = connections;
    await (await fetch(`${origin}/a`)).text();
    await new Promise((resolve) => setTimeout(resolve, 1_300));
    assert.equal(await (await fetch(`${origin}/b`, { method: 'POST', body: 'x' })).text(), 'hello /b');
    assert.equal(connections - before, 2, 'the idle socket was dropped client-side first');
  } finally {
    server.keepAliveTimeout = 5_000;
  }
});
