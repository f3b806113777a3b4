/**
 * POST /api/validate/moderation on the real service: the local word-list matcher flags profanity (also disguised),
 * leaves clean text alone, checks media URLs as text; 438 for input it cannot take; 331 when the matcher fails.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Hono } from 'hono';
import type { AppDeps } from '../../src/app-deps.js';
import type { AppEnv } from '../../src/context.js';
import { moderationRoutes } from '../../src/moderation/routes.js';
import { startTestService, type TestService } from '../support/test-service.js';

let svc: TestService;

before(async () => {
  svc = await startTestService({ account: { plan: 'business' } });
});
after(() => svc.close());

const moderate = (body: unknown) => svc.api('POST', '/validate/moderation', { body });

test('clean text is not flagged', async () => {
  const answer = await moderate({ post: 'Our spring sale starts Monday. See you there!' });
  assert.equal(answer.status, 200, JSON.stringify(answer.json));
  assert.equal(answer.json.flagged, false);
  assert.deepEqual(answer.json.text.matches, []);
});

test('profanity is flagged with where it is, also when disguised, and a censored copy', async () => {
  const plain = await moderate({ post: 'What the fuck is this' });
  assert.equal(plain.json.flagged, true);
  assert.deepEqual(plain.json.text.matches.map((m: any) => [m.term, m.start, m.end]), [['fuck', 9, 13]]);
  assert.ok(!plain.json.text.censored.includes('fuck'));
  const disguised = await moderate({ post: 'you are a f u c k i n g joke, $h1t' });
  assert.equal(disguised.json.flagged, true);
  assert.ok(disguised.json.text.matches.length >= 2, JSON.stringify(disguised.json.text.matches));
});

test('media URLs are checked by their address (the image is not fetched)', async () => {
  const answer = await moderate({ post: '', mediaUrls: ['https://cdn.example.com/img/shit-happens.jpg', 'https://cdn.example.com/img/beach.jpg'] });
  assert.equal(answer.status, 200, JSON.stringify(answer.json));
  assert.equal(answer.json.flagged, true);
  assert.deepEqual(answer.json.mediaUrls.map((m: any) => m.flagged), [true, false]);
});

test('input it cannot take: 438', async () => {
  const cases: unknown[] = [
    {},
    { post: '   ' },
    { post: 42 },
    { post: 'x'.repeat(10_001) },
    { post: 'bell\u0007' },
    { post: 'hi', mediaUrls: ['ftp://example.com/a.jpg'] },
    { post: 'hi', mediaUrls: 'https://example.com/a.jpg' },
    { post: 'hi', mediaUrls: Array.from({ length: 11 }, (_, i) => `https://example.com/${i}.jpg`) },
    { post: 'hi', extra: 1 },
  ];
  for (const body of cases) {
    const answer = await moderate(body);
    assert.equal(answer.status, 400, JSON.stringify(body));
    assert.equal(answer.json.code, 438, JSON.stringify([body, answer.json]));
    assert.equal(answer.json.action, 'moderation');
  }
  const unauthenticated = await fetch(`${svc.url}/api/validate/moderation`, { method: 'POST', body: '{"post":"hi"}', headers: { 'Content-Type': 'application/json' } });
  assert.equal(unauthenticated.status, 401);
});

test('a matcher that fails answers 331, retryable', async () => {
  // The route with a matcher that throws, on the real HTTP stack of a small app (the library itself does not fail on demand).
  const failing = { getAllMatches: () => { throw new Error('matcher broke'); } };
  const app = new Hono<AppEnv>();
  app.onError((error, c) => c.json((error as any).toEnvelope(), (error as any).status));
  const logged: string[] = [];
  app.route('/', moderationRoutes({ config: svc.config, log: (line: string) => logged.push(line) } as unknown as AppDeps, failing));
  const response = await app.request('/', { method: 'POST', body: JSON.stringify({ post: 'hello' }), headers: { 'Content-Type': 'application/json' } });
  const body = (await response.json()) as Record<string, unknown>;
  assert.equal(response.status, 500);
  assert.equal(body.code, 331);
  assert.equal(body.retryAvailable, true);
  assert.match(logged[0]!, /matcher broke/);
});
