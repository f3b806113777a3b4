/**
 * The demo integrator backend's session route (demo/server.ts), what every click of the demo's buttons asks first,
 * against the real service over loopback HTTP: the session comes back with the link, every answer (a session, a
 * forwarded error, a missing file) carries `Cache-Control: no-store` and `Referrer-Policy: no-referrer`, and the
 * service's error reaches the page with its status and code.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { startDemo, type RunningDemo } from '../../../demo/server.js';
import { startTestService, type TestService } from '../support/test-service.js';

let svc: TestService;
let demo: RunningDemo;
let dataDir: string;

before(async () => {
  svc = await startTestService();
  dataDir = mkdtempSync(join(tmpdir(), 'slk-demo-session-'));
  demo = await startDemo({ serviceUrl: svc.url, apiKey: svc.apiKey, dataDir, host: '127.0.0.1', port: 0 });
});
after(async () => {
  await demo.close();
  await svc.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function assertDemoHeaders(response: Response): void {
  assert.equal(response.headers.get('cache-control'), 'no-store');
  assert.equal(response.headers.get('referrer-policy'), 'no-referrer');
}

test('a session for frame mode: its link, id and expiry, never cached', async () => {
  const response = await fetch(`${demo.url}/api/session`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"mode":"frame"}' });
  assert.equal(response.status, 200);
  assertDemoHeaders(response);
  const body = (await response.json()) as { sessionId: string; url: string; expiresAt: string };
  assert.deepEqual(Object.keys(body), ['sessionId', 'url', 'expiresAt']);
  assert.match(body.sessionId, /^ls_/);
  assert.ok(body.url.startsWith(`${svc.url}/link?session=`), body.url);
  // A session is read with its own profile's key (spec 4.6): the demo's backend reads it with the demo profile's.
  const read = await fetch(`${demo.url}/api/session/${encodeURIComponent(body.sessionId)}`);
  assert.equal(read.status, 200);
  const session = (await read.json()) as { origin: string };
  assert.equal(session.origin, demo.url, 'the page that frames the link is the demo site');
});

test("the service's refusal reaches the page with its status and code, with the same headers", async () => {
  const response = await fetch(`${demo.url}/api/session/ls_000000000000000000000000`);
  assert.equal(response.status, 404);
  assertDemoHeaders(response);
  const body = (await response.json()) as { status: string; code: number; message: string };
  assert.equal(body.status, 'error');
  assert.equal(typeof body.code, 'number');
  assert.match(body.message, /No link session/);
});

test('a missing file is a 404 with the same headers', async () => {
  const response = await fetch(`${demo.url}/missing-page.html`);
  assert.equal(response.status, 404);
  assertDemoHeaders(response);
  await response.text();
});
