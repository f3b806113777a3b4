/**
 * The link-session create and read, `POST /api/post`, `GET /api/post/:id` and `GET /api/history` are served below Hono
 * (core/http/raw-listener.ts; the post reads from memory on SQLite, so each is asked twice). These tests hold that path to
 * the Hono one: two instances of the real service on one database (SQLite file, or PostgreSQL under
 * scripts/with-postgres.sh), one with the raw routes and one without, get the same requests as raw bytes on
 * loopback; every answer must be byte for byte the same (status line, every header in order, body), apart from
 * the date and what is random by design (session ids, link tokens, generated request ids), and so must the access
 * lines, the logged errors and the request metrics. A second test pins which requests the raw listener takes at
 * all: everything unusual must reach the Hono listener.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createAccount } from '../../src/accounts/service.js';
import { readConfig, type ServiceConfig } from '../../src/config.js';
import { rawRouteListener } from '../../src/core/http/raw-listener.js';
import { composeService } from '../../src/compose.js';
import { postCreateRawRoutes, postReadRawRoutes } from '../../src/publishing/routes.js';
import { linkSessionRawRoutes } from '../../src/linking/routes/link-sessions.js';
import { startService, type RunningService } from '../../src/server.js';
import { openStorage } from '../../src/storage/open-storage.js';
import type { Storage } from '../../src/storage/storage.js';
import { freshDatabase } from '../support/fresh-database.js';
import { testClock } from '../support/test-service.js';

const ADMIN_TOKEN = 'parity-admin-token-' + 'a'.repeat(32);
/** Above the creates the cases make on the main account (counted once for both paths on PostgreSQL). */
const CREATE_LIMIT = 60;
/** Sent on every request: a Host @hono/node-server takes as it is, whatever port the test service got. */
const HOST = 'service.test:8080';

interface Keys {
  key: string;
  profileKey: string;
  limitedKey: string;
  ownSession: string;
  otherSession: string;
  profileSession: string;
  /** Scheduled posts: the primary profile's, the second profile's, another account's, one over its month's quota. */
  ownPost: string;
  profilePost: string;
  otherPost: string;
  quotaPost: string;
  quotaKey: string;
  /** `one` on the instance with the raw routes, `two` on the other (post texts that must differ). */
  instance: 'one' | 'two';
}

interface RequestSpec {
  method: string;
  path: string;
  /** Extra header lines; `Authorization: Bearer <key>` and an `X-Request-Id` are added unless given here (null: none). */
  headers?: Record<string, string | string[] | null>;
  /** Sent with its Content-Length, unless `chunked`. */
  body?: string;
  /** The body as chunked transfer encoding (no Content-Length). */
  chunked?: boolean;
  version?: '1.0' | '1.1';
}

interface Case {
  name: string;
  /** Which listener must answer when the raw routes are on. */
  served: 'raw' | 'hono';
  request(keys: Keys, n: number): RequestSpec;
}

const read = (id: string) => `/api/profiles/link-sessions/${id}`;
const create = '/api/profiles/link-sessions';
const json = { 'Content-Type': 'application/json' };

const post = (id: string) => `/api/post/${id}`;

/** The post reads: each valid read is asked twice, the second answered from memory on SQLite. */
const POST_CASES: Case[] = [
  { name: 'post read', served: 'raw', request: (k) => ({ method: 'GET', path: post(k.ownPost) }) },
  { name: 'post read again', served: 'raw', request: (k) => ({ method: 'GET', path: post(k.ownPost) }) },
  { name: 'post read through a Profile-Key', served: 'raw', request: (k) => ({ method: 'GET', path: post(k.profilePost), headers: { 'Profile-Key': k.profileKey } }) },
  { name: 'post read through a Profile-Key again', served: 'raw', request: (k) => ({ method: 'GET', path: post(k.profilePost), headers: { 'Profile-Key': k.profileKey } }) },
  { name: "another profile's post, primary key", served: 'raw', request: (k) => ({ method: 'GET', path: post(k.profilePost) }) },
  { name: "the primary profile's post through a Profile-Key", served: 'raw', request: (k) => ({ method: 'GET', path: post(k.ownPost), headers: { 'Profile-Key': k.profileKey } }) },
  { name: "another account's post", served: 'raw', request: (k) => ({ method: 'GET', path: post(k.otherPost) }) },
  { name: 'unknown post id', served: 'raw', request: () => ({ method: 'GET', path: post('post_unknown') }) },
  { name: 'post read over the quota', served: 'raw', request: (k) => ({ method: 'GET', path: post(k.quotaPost), headers: { Authorization: `Bearer ${k.quotaKey}` } }) },
  { name: 'post read, missing key', served: 'raw', request: (k) => ({ method: 'GET', path: post(k.ownPost), headers: { Authorization: null } }) },
  { name: 'post read, bad Profile-Key', served: 'raw', request: (k) => ({ method: 'GET', path: post(k.ownPost), headers: { 'Profile-Key': 'pk_nope' } }) },
  // On PostgreSQL the key's check and the read are one statement (publishing/routes.ts): its refusals come first.
  { name: 'post read, unknown key', served: 'raw', request: (k) => ({ method: 'GET', path: post(k.ownPost), headers: { Authorization: `Bearer sk_unknown_${'u'.repeat(40)}` } }) },
  { name: "another profile's post, bad Profile-Key", served: 'raw', request: (k) => ({ method: 'GET', path: post(k.profilePost), headers: { 'Profile-Key': 'pk_nope' } }) },
  { name: 'unknown post id, unknown key', served: 'raw', request: () => ({ method: 'GET', path: post('post_unknown'), headers: { Authorization: `Bearer sk_unknown_${'u'.repeat(40)}` } }) },
  { name: 'post read, query string', served: 'raw', request: (k) => ({ method: 'GET', path: `${post(k.ownPost)}?a=%zz` }) },
  { name: 'post read, percent-encoded id', served: 'hono', request: (k) => ({ method: 'GET', path: post(k.ownPost.replace('post_', '%70ost_')) }) },
  { name: 'post read, trailing slash', served: 'hono', request: (k) => ({ method: 'GET', path: `${post(k.ownPost)}/` }) },
  { name: 'post attempts', served: 'hono', request: (k) => ({ method: 'GET', path: `${post(k.ownPost)}/attempts` }) },
  { name: 'post read, HEAD', served: 'hono', request: (k) => ({ method: 'HEAD', path: post(k.ownPost) }) },
  { name: 'history', served: 'raw', request: () => ({ method: 'GET', path: '/api/history' }) },
  { name: 'history again', served: 'raw', request: () => ({ method: 'GET', path: '/api/history' }) },
  { name: 'history, limit', served: 'raw', request: () => ({ method: 'GET', path: '/api/history?limit=1' }) },
  { name: 'history, filters', served: 'raw', request: () => ({ method: 'GET', path: '/api/history?status=scheduled&type=schedule&platforms=linkedin,twitter&lastDays=0&limit=5' }) },
  { name: 'history, dates', served: 'raw', request: () => ({ method: 'GET', path: '/api/history?startDate=2026-11-01T00:00:00Z&endDate=2026-12-01T00:00:00Z' }) },
  { name: 'history, a parameter twice', served: 'raw', request: () => ({ method: 'GET', path: '/api/history?limit=1&limit=50&&=x&flag' }) },
  { name: 'history through a Profile-Key', served: 'raw', request: (k) => ({ method: 'GET', path: '/api/history?limit=10', headers: { 'Profile-Key': k.profileKey } }) },
  { name: 'history through a Profile-Key again', served: 'raw', request: (k) => ({ method: 'GET', path: '/api/history?limit=10', headers: { 'Profile-Key': k.profileKey } }) },
  { name: 'history, bad limit', served: 'raw', request: () => ({ method: 'GET', path: '/api/history?limit=0' }) },
  { name: 'history, unknown platform', served: 'raw', request: () => ({ method: 'GET', path: '/api/history?platforms=nope' }) },
  { name: 'history, bad date', served: 'raw', request: () => ({ method: 'GET', path: '/api/history?startDate=yesterday' }) },
  { name: 'history, unknown parameter', served: 'raw', request: () => ({ method: 'GET', path: '/api/history?nope=1' }) },
  { name: 'history, missing key', served: 'raw', request: () => ({ method: 'GET', path: '/api/history', headers: { Authorization: null } }) },
  { name: 'history, unknown key', served: 'raw', request: () => ({ method: 'GET', path: '/api/history', headers: { Authorization: `Bearer sk_unknown_${'u'.repeat(40)}` } }) },
  { name: 'history, bad Profile-Key', served: 'raw', request: () => ({ method: 'GET', path: '/api/history?limit=10', headers: { 'Profile-Key': 'pk_nope' } }) },
  { name: 'history, bad limit and unknown key', served: 'raw', request: () => ({ method: 'GET', path: '/api/history?limit=0', headers: { Authorization: `Bearer sk_unknown_${'u'.repeat(40)}` } }) },
  { name: 'history, unknown platform and bad Profile-Key', served: 'raw', request: () => ({ method: 'GET', path: '/api/history?platforms=nope', headers: { 'Profile-Key': 'pk_nope' } }) },
  { name: 'history over the quota', served: 'raw', request: (k) => ({ method: 'GET', path: '/api/history?limit=10', headers: { Authorization: `Bearer ${k.quotaKey}` } }) },
  { name: 'history, empty page', served: 'raw', request: () => ({ method: 'GET', path: '/api/history?status=deleted' }) },
  { name: 'history, percent-encoded query', served: 'hono', request: () => ({ method: 'GET', path: '/api/history?status=awaiting%20approval' }) },
  { name: 'history, plus in the query', served: 'hono', request: () => ({ method: 'GET', path: '/api/history?status=awaiting+approval' }) },
  { name: 'history, trailing slash', served: 'hono', request: () => ({ method: 'GET', path: '/api/history/' }) },
];

const createPost = '/api/post';
/** A week ahead of the test clock (the clock stands still), in the API's form. */
const weekAhead = () => new Date(testClock()() + 7 * 86_400_000).toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * The post create. A created post's text names the instance (`one`/`two`, masked by `normalized`): the same text
 * twice would be refused the second time as a duplicate (137), which is a case of its own.
 */
const CREATE_POST_CASES: Case[] = [
  {
    name: 'post create, scheduled',
    served: 'raw',
    request: (k) => ({ method: 'POST', path: createPost, headers: json, body: JSON.stringify({ post: `Parity create ${k.instance}`, platforms: ['linkedin'], scheduleDate: weekAhead() }) }),
  },
  {
    name: 'post create through a Profile-Key, held for approval',
    served: 'raw',
    request: (k) => ({ method: 'POST', path: createPost, headers: { ...json, 'Profile-Key': k.profileKey }, body: JSON.stringify({ post: `Parity held ${k.instance}`, platforms: ['linkedin'], scheduleDate: weekAhead(), requiresApproval: true }) }),
  },
  { name: 'post create, a duplicate', served: 'raw', request: () => ({ method: 'POST', path: createPost, headers: json, body: JSON.stringify({ post: 'Parity post 0', platforms: ['linkedin'], scheduleDate: weekAhead() }) }) },
  { name: 'post create, no linked account', served: 'raw', request: () => ({ method: 'POST', path: createPost, headers: json, body: JSON.stringify({ post: 'Parity nowhere', platforms: ['facebook'] }) }) },
  { name: 'post create, unknown platform', served: 'raw', request: () => ({ method: 'POST', path: createPost, headers: json, body: '{"post":"x","platforms":["nope"]}' }) },
  { name: 'post create, unknown field', served: 'raw', request: () => ({ method: 'POST', path: createPost, headers: json, body: '{"post":"x","platforms":["linkedin"],"nope":1}' }) },
  { name: 'post create, malformed JSON', served: 'raw', request: () => ({ method: 'POST', path: createPost, headers: json, body: '{"post":' }) },
  { name: 'post create, empty body', served: 'raw', request: () => ({ method: 'POST', path: createPost, headers: json, body: '' }) },
  { name: 'post create, missing key', served: 'raw', request: () => ({ method: 'POST', path: createPost, headers: { ...json, Authorization: null }, body: '{}' }) },
  { name: 'post create, bad Profile-Key', served: 'raw', request: () => ({ method: 'POST', path: createPost, headers: { ...json, 'Profile-Key': 'pk_nope' }, body: '{}' }) },
  { name: 'post create, over the quota', served: 'raw', request: (k) => ({ method: 'POST', path: createPost, headers: { ...json, Authorization: `Bearer ${k.quotaKey}` }, body: JSON.stringify({ post: `Parity quota ${k.instance}`, platforms: ['linkedin'], scheduleDate: weekAhead() }) }) },
  { name: "post create, a network's own app missing", served: 'raw', request: () => ({ method: 'POST', path: createPost, headers: json, body: JSON.stringify({ post: 'Parity app', platforms: ['twitter'] }) }) },
  { name: 'post create, trailing slash', served: 'hono', request: () => ({ method: 'POST', path: `${createPost}/`, headers: json, body: '{}' }) },
  { name: 'post create, chunked body', served: 'hono', request: () => ({ method: 'POST', path: createPost, headers: json, body: '{}', chunked: true }) },
];

const CASES: Case[] = [
  { name: 'valid read', served: 'raw', request: (k) => ({ method: 'GET', path: read(k.ownSession) }) },
  { name: 'valid read, generated request id', served: 'raw', request: (k) => ({ method: 'GET', path: read(k.ownSession), headers: { 'X-Request-Id': null } }) },
  { name: 'read with an unusable request id', served: 'raw', request: (k) => ({ method: 'GET', path: read(k.ownSession), headers: { 'X-Request-Id': 'has space' } }) },
  { name: 'unknown id', served: 'raw', request: () => ({ method: 'GET', path: read('ls_000000000000000000000000') }) },
  { name: "other account's session", served: 'raw', request: (k) => ({ method: 'GET', path: read(k.otherSession) }) },
  { name: 'read through a Profile-Key', served: 'raw', request: (k) => ({ method: 'GET', path: read(k.profileSession), headers: { 'Profile-Key': k.profileKey } }) },
  { name: "another profile's session, primary key", served: 'raw', request: (k) => ({ method: 'GET', path: read(k.profileSession) }) },
  { name: 'missing key', served: 'raw', request: (k) => ({ method: 'GET', path: read(k.ownSession), headers: { Authorization: null } }) },
  { name: 'invalid key', served: 'raw', request: (k) => ({ method: 'GET', path: read(k.ownSession), headers: { Authorization: 'Bearer sk_wrong' } }) },
  { name: 'not a bearer key', served: 'raw', request: (k) => ({ method: 'GET', path: read(k.ownSession), headers: { Authorization: `Basic ${k.key}` } }) },
  {
    name: 'Authorization sent twice',
    served: 'raw',
    request: (k) => ({ method: 'GET', path: read(k.ownSession), headers: { Authorization: [`Bearer ${k.key}`, `Bearer ${k.key}`] } }),
  },
  { name: 'bad Profile-Key', served: 'raw', request: (k) => ({ method: 'GET', path: read(k.ownSession), headers: { 'Profile-Key': 'pk_nope' } }) },
  { name: 'query string', served: 'raw', request: (k) => ({ method: 'GET', path: `${read(k.ownSession)}?session=secret&x=%zz` }) },
  { name: 'percent-encoded id', served: 'hono', request: (k) => ({ method: 'GET', path: read(k.ownSession.replace('ls_', '%6Cs_')) }) },
  { name: 'NUL in the id', served: 'hono', request: () => ({ method: 'GET', path: read('ls_%00') }) },
  { name: 'dot segment', served: 'hono', request: (k) => ({ method: 'GET', path: `/api/profiles/link-sessions/../link-sessions/${k.ownSession}` }) },
  { name: 'read, trailing slash', served: 'hono', request: (k) => ({ method: 'GET', path: `${read(k.ownSession)}/` }) },
  { name: 'read without an id', served: 'hono', request: () => ({ method: 'GET', path: '/api/profiles/link-sessions/' }) },
  { name: 'HEAD', served: 'hono', request: (k) => ({ method: 'HEAD', path: read(k.ownSession) }) },
  { name: 'OPTIONS', served: 'hono', request: () => ({ method: 'OPTIONS', path: create }) },
  { name: 'PUT', served: 'hono', request: (k) => ({ method: 'PUT', path: read(k.ownSession), headers: json, body: '{}' }) },
  { name: 'HTTP/1.0 without Host', served: 'hono', request: (k) => ({ method: 'GET', path: read(k.ownSession), version: '1.0', headers: { Host: null } }) },
  { name: 'odd Host', served: 'hono', request: (k) => ({ method: 'GET', path: read(k.ownSession), headers: { Host: 'Service.Test:80' } }) },
  { name: 'create, empty object', served: 'raw', request: () => ({ method: 'POST', path: create, headers: json, body: '{}' }) },
  { name: 'create, empty body', served: 'raw', request: () => ({ method: 'POST', path: create, headers: json, body: '' }) },
  {
    name: 'create with fields',
    served: 'raw',
    request: () => ({
      method: 'POST',
      path: create,
      headers: json,
      body: JSON.stringify({ origin: 'https://app.example.com', allowedSocial: ['twitter', 'linkedin'], locale: 'fr', expiresIn: 30 }),
    }),
  },
  { name: 'create through a Profile-Key', served: 'raw', request: (k) => ({ method: 'POST', path: create, headers: { ...json, 'Profile-Key': k.profileKey }, body: '{}' }) },
  { name: 'create, email without mailer', served: 'raw', request: () => ({ method: 'POST', path: create, headers: json, body: JSON.stringify({ email: { to: 'a@example.com' } }) }) },
  { name: 'invalid field value', served: 'raw', request: () => ({ method: 'POST', path: create, headers: json, body: '{"allowedSocial":[]}' }) },
  { name: 'unknown field', served: 'raw', request: () => ({ method: 'POST', path: create, headers: json, body: '{"nope":1}' }) },
  { name: 'malformed JSON', served: 'raw', request: () => ({ method: 'POST', path: create, headers: json, body: '{"origin":' }) },
  { name: 'JSON array', served: 'raw', request: () => ({ method: 'POST', path: create, headers: json, body: '[]' }) },
  { name: 'NUL character in a field', served: 'raw', request: () => ({ method: 'POST', path: create, headers: json, body: '{"redirect":"https://a.example/\\u0000"}' }) },
  { name: 'raw NUL byte in the body', served: 'raw', request: () => ({ method: 'POST', path: create, headers: json, body: '{"locale":"\u0000"}' }) },
  { name: 'wrong content type', served: 'raw', request: () => ({ method: 'POST', path: create, headers: { 'Content-Type': 'text/plain' }, body: '{}' }) },
  { name: 'no content type', served: 'raw', request: () => ({ method: 'POST', path: create, body: '{"locale":"de"}' }) },
  { name: 'create, missing key', served: 'raw', request: () => ({ method: 'POST', path: create, headers: { ...json, Authorization: null }, body: '{}' }) },
  { name: 'create, bad Profile-Key', served: 'raw', request: () => ({ method: 'POST', path: create, headers: { ...json, 'Profile-Key': 'pk_nope' }, body: '{}' }) },
  { name: 'create, query string', served: 'raw', request: () => ({ method: 'POST', path: `${create}?a=b`, headers: json, body: '{}' }) },
  { name: 'create, trailing slash', served: 'hono', request: () => ({ method: 'POST', path: `${create}/`, headers: json, body: '{}' }) },
  { name: 'oversized body', served: 'hono', request: () => ({ method: 'POST', path: create, headers: json, body: JSON.stringify({ origin: 'x'.repeat(20_000) }) }) },
  { name: 'chunked body', served: 'hono', request: () => ({ method: 'POST', path: create, headers: json, body: '{"locale":"es"}', chunked: true }) },
  { name: 'Expect: 100-continue', served: 'hono', request: () => ({ method: 'POST', path: create, headers: { ...json, Expect: '100-continue' }, body: '{}' }) },
  { name: 'rate limited', served: 'raw', request: (k) => ({ method: 'POST', path: create, headers: { ...json, Authorization: `Bearer ${k.limitedKey}` }, body: '{}' }) },
  ...POST_CASES,
  ...CREATE_POST_CASES,
];

function requestBytes(spec: RequestSpec, keys: Keys, requestId: string): string {
  const headers: Record<string, string | string[] | null> = {
    Host: HOST,
    Authorization: `Bearer ${keys.key}`,
    'X-Request-Id': requestId,
    ...spec.headers,
  };
  const lines = [`${spec.method} ${spec.path} HTTP/${spec.version ?? '1.1'}`];
  for (const [name, value] of Object.entries(headers)) {
    if (value === null) continue;
    for (const one of Array.isArray(value) ? value : [value]) lines.push(`${name}: ${one}`);
  }
  lines.push('Connection: close');
  let body = spec.body ?? '';
  if (spec.chunked) {
    lines.push('Transfer-Encoding: chunked');
    body = `${Buffer.byteLength(body).toString(16)}\r\n${body}\r\n0\r\n\r\n`;
  } else if (spec.body !== undefined) {
    lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
  }
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}

/** Writes the request's bytes on a fresh connection and returns every byte the server sends until it closes. */
function exchange(baseUrl: string, bytes: string): Promise<string> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(bytes));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
  });
}

/** Masks what differs by design: the date, session ids, link tokens and generated request ids. */
function normalized(text: string): string {
  return text
    .replace(/^Date: .*$/gm, 'Date: (date)')
    .replace(/ls_[0-9a-f]{24}/g, 'ls_(id)')
    .replace(/post_[0-9A-Za-z_-]+/g, 'post_(id)')
    .replace(/Parity (create|held|quota) (one|two)/g, 'Parity $1 (instance)')
    .replace(/session=[A-Za-z0-9_-]{43}/g, 'session=(token)')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '(generated id)');
}

/** The access lines and error lines logged for one request, without time and duration. */
function requestLogLines(lines: string[]): string[] {
  return lines
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((entry) => entry.msg === 'request' || String(entry.msg).startsWith('unhandled error'))
    .map(({ time: _time, ms: _ms, ...entry }) => {
      // An unexpected error's stack differs between the two paths by design; its first line must not.
      const msg = String(entry.msg).split('\n')[0];
      return normalized(JSON.stringify({ ...entry, msg }));
    });
}

interface Instance {
  service: RunningService;
  storage: Storage;
  logs: string[];
  /** The request counters after the set-up requests (which went to one instance only). */
  countsBefore: Map<string, number>;
}

/** The request counters of `/api/profiles…`, `/api/post…` and `/api/history` routes since `countsBefore` (counts and histogram counts). */
async function requestCounts(instance: Instance): Promise<Map<string, number>> {
  const response = await fetch(`${instance.service.url}/metrics`, { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } });
  assert.equal(response.status, 200);
  const counts = new Map<string, number>();
  for (const line of (await response.text()).split('\n')) {
    const match = /^(slk_http_request(?:s_total|_duration_seconds_count)\{.*route="\/api\/(?:profiles|post|history).*\}) (\d+)$/.exec(line);
    if (!match) continue;
    const since = Number(match[2]) - (instance.countsBefore.get(match[1]!) ?? 0);
    if (since > 0) counts.set(match[1]!, since);
  }
  return counts;
}

describe('link-session routes below Hono answer exactly as Hono does', { timeout: 120_000 }, () => {
  const dirs: string[] = [];
  let dropDatabase = async () => {};
  let raw: Instance;
  let hono: Instance;
  let keys: Keys;
  /** The second account's and the limited accounts' keys, used by the rate-limit case on each path. */
  let limitedKeys: { raw: string; hono: string };

  async function startInstance(databaseUrl: string | null, rawRoutes: boolean, clock: ReturnType<typeof testClock>): Promise<Instance> {
    const dir = mkdtempSync(join(tmpdir(), 'slk-parity-'));
    dirs.push(dir);
    const config: ServiceConfig = readConfig({
      DATA_DIR: dir,
      PORT: '0',
      HOST: '127.0.0.1',
      // Both instances write the same link URLs, and share one SQLite file when there is no PostgreSQL.
      PUBLIC_URL: 'https://link.example.test',
      // The sandbox's linkedin, so the post reads have posts to read.
      SANDBOX_NETWORKS: 'all',
      ADMIN_TOKEN,
      RATE_LIMIT_SESSION_CREATE_PER_MINUTE: String(CREATE_LIMIT),
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : { DATABASE_FILE: join(dirs[0]!, 'shared.db') }),
    });
    const storage = await openStorage(config);
    const logs: string[] = [];
    const service = await startService({ config, storage, clock, mailer: null, log: (line) => logs.push(line), rawRoutes });
    return { service, storage, logs, countsBefore: new Map() };
  }

  before(async () => {
    const database = process.env.TEST_DATABASE_URL ? await freshDatabase('slk_parity') : null;
    if (database) dropDatabase = () => database.drop();
    const clock = testClock();
    raw = await startInstance(database?.url ?? null, true, clock);
    hono = await startInstance(database?.url ?? null, false, clock);
    assert.notEqual(raw.service.url, hono.service.url);

    const main = await createAccount(raw.storage, clock);
    const other = await createAccount(raw.storage, clock);
    const limitedOnRaw = await createAccount(raw.storage, clock);
    const limitedOnHono = await createAccount(raw.storage, clock);
    limitedKeys = { raw: limitedOnRaw.apiKey, hono: limitedOnHono.apiKey };
    const quota = await createAccount(raw.storage, clock);
    const post = async (apiKey: string, path: string, body: unknown, extra: Record<string, string> = {}) => {
      const response = await fetch(`${raw.service.url}/api${path}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json', ...extra },
        body: JSON.stringify(body),
      });
      assert.equal(response.status, 200);
      return (await response.json()) as Record<string, string>;
    };
    /** One scheduled linkedin post each (a week ahead of the test clock) for the primary and second profiles, another account and the quota account. */
    const scheduledPosts = async (mainKey: string, profileKey: string, otherKey: string, quotaKey: string) => {
      const at = new Date(clock() + 7 * 86_400_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
      const ids: string[] = [];
      for (const [apiKey, extra] of [[mainKey, {}], [mainKey, { 'Profile-Key': profileKey }], [otherKey, {}], [quotaKey, {}]] as const) {
        await post(apiKey, '/sandbox/accounts', { platform: 'linkedin' }, extra);
        ids.push((await post(apiKey, '/post', { post: `Parity post ${ids.length}`, platforms: ['linkedin'], scheduleDate: at, notes: 'read <twice> & "quoted"' }, extra)).id!);
      }
      return { ownPost: ids[0]!, profilePost: ids[1]!, otherPost: ids[2]!, quotaPost: ids[3]! };
    };
    const profile = await post(main.apiKey, '/profiles', { title: 'Second profile' });
    keys = {
      key: main.apiKey,
      profileKey: profile.profileKey!,
      limitedKey: '',
      ownSession: (await post(main.apiKey, '/profiles/link-sessions', {})).sessionId!,
      otherSession: (await post(other.apiKey, '/profiles/link-sessions', {})).sessionId!,
      profileSession: (await post(main.apiKey, '/profiles/link-sessions', {}, { 'Profile-Key': profile.profileKey! })).sessionId!,
      ...(await scheduledPosts(main.apiKey, profile.profileKey!, other.apiKey, quota.apiKey)),
      quotaKey: quota.apiKey,
      instance: 'one',
    };
    // The quota account's month is used up (spec 7: its reads answer 106 then).
    await raw.storage.driver.run('UPDATE post_counts SET count = 1000000 WHERE profile_id = (SELECT profile_id FROM posts WHERE id = ?)', [keys.quotaPost]);
    // Both limited accounts use up their creates, each on the path it is tested on.
    for (const [instance, apiKey] of [
      [raw, limitedKeys.raw],
      [hono, limitedKeys.hono],
    ] as const) {
      for (let i = 0; i < CREATE_LIMIT; i++) {
        const response = await fetch(`${instance.service.url}/api/profiles/link-sessions`, { method: 'POST', headers: { Authorization: `Bearer ${apiKey}` }, body: '{}' });
        assert.equal(response.status, 200);
        await response.body?.cancel();
      }
    }
    raw.countsBefore = await requestCounts(raw);
    hono.countsBefore = await requestCounts(hono);
  });

  after(async () => {
    await raw?.service.close();
    await hono?.service.close();
    await dropDatabase();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  for (const [n, testCase] of CASES.entries()) {
    it(testCase.name, async () => {
      const answers: string[] = [];
      const logged: string[][] = [];
      for (const instance of [raw, hono]) {
        const instanceKeys = { ...keys, limitedKey: instance === raw ? limitedKeys.raw : limitedKeys.hono, instance: instance === raw ? ('one' as const) : ('two' as const) };
        const bytes = requestBytes(testCase.request(instanceKeys, n), instanceKeys, `parity-${n}`);
        const before = instance.logs.length;
        answers.push(normalized(await exchange(instance.service.url, bytes)));
        logged.push(requestLogLines(instance.logs.slice(before)));
      }
      const [rawAnswer, honoAnswer] = answers;
      assert.match(rawAnswer!, /^HTTP\/1\.1 [1-4]\d\d /, 'every one of these is a client error or a success, never a 5xx');
      assert.equal(rawAnswer, honoAnswer);
      assert.equal(logged[0]!.length, 1, `one access line: ${logged[0]!.join('\n')}`);
      assert.deepEqual(logged[0], logged[1]);
    });
  }

  it('an error thrown by storage: the same 500 envelope, access line and logged error', async () => {
    const answers: string[] = [];
    const logged: string[][] = [];
    for (const instance of [raw, hono]) {
      const linking = instance.storage.linking;
      const original = linking.findLinkSession;
      linking.findLinkSession = async () => {
        throw new Error('the disk went away');
      };
      try {
        const before = instance.logs.length;
        answers.push(normalized(await exchange(instance.service.url, requestBytes({ method: 'GET', path: read(keys.ownSession) }, keys, 'parity-storage'))));
        logged.push(requestLogLines(instance.logs.slice(before)));
      } finally {
        linking.findLinkSession = original;
      }
    }
    assert.match(answers[0]!, /^HTTP\/1\.1 500 /);
    assert.equal(answers[0], answers[1]);
    assert.equal(logged[0]!.length, 2);
    assert.match(logged[0]![0]!, /unhandled error on GET \/api\/profiles\/link-sessions\/:sessionId \(request parity-storage\): Error: the disk went away/);
    assert.deepEqual(logged[0], logged[1]);
  });

  it('a request after an unread body on the same connection is answered in the same way', async () => {
    // A refused create whose body the route never read, then a read, pipelined on one keep-alive connection.
    const answers: string[] = [];
    for (const instance of [raw, hono]) {
      const refused = requestBytes({ method: 'POST', path: create, headers: { ...json, Authorization: 'Bearer sk_wrong' }, body: '{"locale":"ja"}' }, keys, 'parity-a');
      const next = requestBytes({ method: 'GET', path: read(keys.ownSession) }, keys, 'parity-b');
      answers.push(normalized(await exchange(instance.service.url, refused.replace('Connection: close\r\n', '') + next)));
    }
    assert.equal((answers[0]!.match(/HTTP\/1\.1 \d{3} /g) ?? []).length, 2);
    assert.equal(answers[0], answers[1]);
  });

  it('the request metrics agree', async () => {
    const rawCounts = await requestCounts(raw);
    assert.ok((rawCounts.get('slk_http_requests_total{method="GET",route="/api/profiles/link-sessions/:sessionId",status="200"}') ?? 0) > 0);
    assert.deepEqual(rawCounts, await requestCounts(hono));
  });
});

describe('which requests the raw listener takes', () => {
  let dir: string;
  let storage: Storage;
  let server: Server;
  let url: string;
  let keys: Keys;
  let media: { close(): Promise<void> } | undefined;
  const fellThrough: string[] = [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'slk-raw-dispatch-'));
    const config = readConfig({ DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1', PUBLIC_URL: 'https://link.example.test' });
    storage = await openStorage(config);
    const clock = testClock();
    const main = await createAccount(storage, clock);
    const other = await createAccount(storage, clock);
    // The service's parts as startService builds them (no workers, no socket of its own).
    const composed = await composeService({ config, storage, clock, mailer: null, log: () => {} });
    media = composed.media;
    const { deps } = composed;
    const listener = rawRouteListener(deps, [...linkSessionRawRoutes(deps), ...postCreateRawRoutes(deps, deps.publishing!), ...postReadRawRoutes(deps, deps.publishing!)], (incoming, outgoing) => {
      fellThrough.push(String(incoming.headers['x-request-id']));
      incoming.resume();
      outgoing.writeHead(204).end();
    });
    server = createServer(listener);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const session = async (apiKey: string) => {
      const bytes = requestBytes({ method: 'POST', path: create, headers: json, body: '{}' }, { key: apiKey } as Keys, 'setup');
      return /"sessionId":"(ls_[0-9a-f]+)"/.exec(await exchange(url, bytes))![1]!;
    };
    keys = {
      key: main.apiKey,
      profileKey: 'pk_unknown',
      limitedKey: main.apiKey,
      ownSession: await session(main.apiKey),
      otherSession: await session(other.apiKey),
      profileSession: await session(main.apiKey),
      // No posts in this database: the post reads answer 404, which is enough to see who served them.
      ownPost: 'post_own',
      profilePost: 'post_profile',
      otherPost: 'post_other',
      quotaPost: 'post_quota',
      quotaKey: main.apiKey,
      instance: 'one',
    };
  });

  after(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await media?.close();
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the plain create and read itself and hands everything else to the Hono listener', async () => {
    const wrong: string[] = [];
    for (const [n, testCase] of CASES.entries()) {
      const requestId = `dispatch-${n}`;
      const answer = await exchange(url, requestBytes(testCase.request(keys, n), keys, requestId));
      const served = fellThrough.includes(requestId) ? 'hono' : 'raw';
      assert.match(answer, /^HTTP\/1\.1 \d{3} /, `${testCase.name} was answered`);
      if (served !== testCase.served) wrong.push(`${testCase.name}: served by ${served}, expected ${testCase.served}`);
    }
    assert.deepEqual(wrong, []);
  });
});
