/**
 * Logs, request ids, /health, /ready and /metrics on the real service. The log test runs real requests that carry
 * every kind of secret (link tokens in query strings and headers, API keys, the admin token, the telegram webhook
 * secret in its path, a bot token in a sandbox bot path) and then searches the captured log for each one.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { readConfig } from '../../src/config.js';
import { jsonLogLine, structuredLog } from '../../src/core/observability/json-log.js';
import { startService } from '../../src/server.js';
import { OperationsStore } from '../../src/core/observability/operations-store.js';
import { healthRoutes } from '../../src/core/observability/operations-routes.js';
import type { AppDeps } from '../../src/app-deps.js';
import { openStorage } from '../../src/storage/open-storage.js';
import { freshDatabase } from '../support/fresh-database.js';
import { startTestService, tokenOf, type TestService } from '../support/test-service.js';

const ADMIN_TOKEN = `adm_${randomBytes(24).toString('base64url')}`;
const TELEGRAM_SECRET = `tg${randomBytes(20).toString('hex')}`;
const BOT_TOKEN = `7134528890:${randomBytes(26).toString('base64url')}`;

describe('observability', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ env: { ADMIN_TOKEN, TELEGRAM_WEBHOOK_SECRET: TELEGRAM_SECRET } });
  });
  after(() => svc.close());

  it('logs one JSON object per request with its request id, and never a secret', async () => {
    const secrets: string[] = [svc.apiKey, ADMIN_TOKEN, TELEGRAM_SECRET, BOT_TOKEN];
    const session = await svc.client.createLinkSession({ origin: 'https://app.example.test' });
    const token = tokenOf(session.url);
    secrets.push(token);
    const profile = await svc.api('POST', '/profiles', { body: { title: 'Logged' } });
    secrets.push(profile.json.profileKey);

    const requests: [string, RequestInit][] = [
      [`/link?session=${token}&domain=dev`, {}],
      [`/api/link/session?session=${token}`, { headers: { Authorization: `Bearer ${token}` } }],
      [`/api/link/session`, { headers: { Authorization: `Bearer ${token}x` } }],
      [`/api/user`, { headers: { Authorization: `Bearer ${svc.apiKey}`, 'Profile-Key': profile.json.profileKey } }],
      [`/api/user?key=${svc.apiKey}`, {}],
      [`/admin/api/accounts`, { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } }],
      [`/metrics`, { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } }],
      [`/webhooks/telegram/${TELEGRAM_SECRET}`, { method: 'POST', headers: { 'X-Telegram-Bot-Api-Secret-Token': TELEGRAM_SECRET, 'Content-Type': 'application/json' }, body: '{"update_id":1}' }],
      [`/webhooks/telegram/${TELEGRAM_SECRET}`, { method: 'POST', body: '{broken' }],
      [`/sandbox/telegram/bot${BOT_TOKEN}/getMe`, {}],
      [`/bot${BOT_TOKEN}/sendMessage`, { method: 'POST', body: '{}' }],
      [`/no/such/${token}/%0A%1B[31mforged`, {}],
    ];
    for (const [path, init] of requests) await (await fetch(`${svc.url}${path}`, init)).arrayBuffer();

    const log = svc.logLines.join('\n');
    for (const secret of secrets) assert.ok(!log.includes(secret), `a secret reached the log: ${secret.slice(0, 6)}…`);
    const lines = svc.logLines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const access = lines.filter((line) => line.msg === 'request');
    assert.ok(access.length >= requests.length);
    for (const line of access) {
      assert.match(String(line.requestId), /^[\w.:-]+$/);
      assert.equal(typeof line.status, 'number');
      assert.ok(!String(line.route).includes('forged'));
    }
    assert.ok(access.some((line) => line.route === '/webhooks/telegram/:secret'));
    assert.ok(access.some((line) => line.route === '(unmatched)'));
    for (const line of svc.logLines) assert.doesNotMatch(line, /[\u0000-\u001f\u2028\u2029]/);
  });

  it('echoes a plain X-Request-Id and replaces anything else', async () => {
    const kept = await fetch(`${svc.url}/health`, { headers: { 'X-Request-Id': 'edge-42.a:b' } });
    assert.equal(kept.headers.get('x-request-id'), 'edge-42.a:b');
    const replaced = await fetch(`${svc.url}/health`, { headers: { 'X-Request-Id': 'has space"and{json}' } });
    assert.match(replaced.headers.get('x-request-id')!, /^[0-9a-f-]{36}$/);
    assert.ok(svc.logLines.some((line) => line.includes('"requestId":"edge-42.a:b"')));
  });

  it('escapes control characters and line separators in every line', () => {
    const line = jsonLogLine('info', 'a\nb\r\u2028c\u001b[2J\u0000', { path: '\n{"level":"error"}' });
    assert.equal(line.split('\n').length, 1);
    assert.doesNotMatch(line, /[\u0000-\u001f\u2028\u2029]/);
    assert.equal((JSON.parse(line) as { msg: string }).msg, 'a\nb\r\u2028c\u001b[2J\u0000');
    const captured: string[] = [];
    structuredLog((l) => captured.push(l))('unhandled error\n    at frame (file.ts:1)\n{"time":"forged"}');
    assert.equal(captured.length, 1);
    assert.equal((JSON.parse(captured[0]!) as { level: string }).level, 'error');
  });

  it('answers /health and /ready, and counts requests in /metrics behind the admin token', async () => {
    assert.equal((await fetch(`${svc.url}/health`)).status, 200);
    const ready = await fetch(`${svc.url}/ready`);
    assert.equal(ready.status, 200);
    assert.deepEqual(await ready.json(), { status: 'ok', checks: { database: 'ok', jobs: 'ok' } });
    assert.equal((await fetch(`${svc.url}/metrics`)).status, 401);
    assert.equal((await fetch(`${svc.url}/metrics`, { headers: { Authorization: 'Bearer wrong-token' } })).status, 401);
    await fetch(`${svc.url}/api/link/session`, { headers: { Authorization: 'Bearer nope' } });
    const metrics = await fetch(`${svc.url}/metrics`, { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } });
    assert.equal(metrics.status, 200);
    assert.match(metrics.headers.get('content-type')!, /^text\/plain; version=0\.0\.4/);
    const text = await metrics.text();
    assert.match(text, /slk_http_requests_total\{method="GET",route="\/api\/link\/\*",status="401"\} \d+/);
    assert.match(text, /slk_http_request_duration_seconds_bucket\{method="GET",route="\/health",le="\+Inf"\} \d+/);
    assert.match(text, /slk_webhook_outbox_rows\{state="pending"\} \d+/);
    assert.match(text, /slk_jobs\{state="due"\} \d+/);
    // The standard process and runtime series (prom-client's default collectors), beside the service's own.
    for (const series of ['process_cpu_seconds_total', 'process_resident_memory_bytes', 'nodejs_heap_size_used_bytes', 'nodejs_eventloop_lag_p99_seconds', 'nodejs_heap_space_size_used_bytes']) {
      assert.match(text, new RegExp(`^${series}(\\{[^}]*\\})? [\\d.e+-]+$`, 'm'), series);
    }
    // Every family once: a registry rendered twice would repeat its HELP lines.
    const families = text.split('\n').filter((line) => line.startsWith('# HELP '));
    assert.equal(new Set(families).size, families.length);
  });

  it('counts jobs by state from the jobs table', async () => {
    // A database of its own, without a worker that would claim the rows.
    const dir = mkdtempSync(join(tmpdir(), 'slk-jobs-'));
    const database = process.env.TEST_DATABASE_URL ? await freshDatabase('slk_jobs') : null;
    const storage = await openStorage({ databaseFile: join(dir, 'jobs.db'), databaseUrl: database?.url ?? null });
    try {
      const now = Date.parse('2026-11-22T12:00:00Z');
      const rows: [string, number, number | null, number | null][] = [
        ['due-now', now, null, null],
        ['late', now - 120_000, null, null],
        ['leased', now - 1000, now + 30_000, null],
        ['failed', now - 5000, null, now],
      ];
      for (const [id, runAt, leaseUntil, failedAt] of rows) {
        await storage.driver.run(
          "INSERT INTO jobs (id, kind, subject, payload, run_at, lease_until, failed_at, created_at) VALUES (?, 'test', 'subject', '{}', ?, ?, ?, ?)",
          [id, runAt, leaseUntil, failedAt, now - 200_000],
        );
      }
      const counts = Object.fromEntries(((await new OperationsStore(storage.driver).jobCounts(now, now)) ?? []).map(({ state, count }) => [state, count]));
      assert.deepEqual(counts, { due: 2, running: 1, late: 1, failed: 1 });
    } finally {
      await storage.close();
      await database?.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('/metrics does not exist without ADMIN_TOKEN', async () => {
    const plain = await startTestService();
    try {
      assert.equal((await fetch(`${plain.url}/metrics`)).status, 404);
    } finally {
      await plain.close();
    }
  });

  it('/ready answers 503 when the database is gone or the jobs stopped', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'slk-ready-'));
    const storage = await openStorage({ databaseFile: join(dir, 'ready.db'), databaseUrl: null });
    let jobs = true;
    const deps = { storage, clock: () => Date.now(), log: () => {}, jobsRunning: () => jobs } as unknown as AppDeps;
    const app = healthRoutes(deps);
    try {
      assert.equal((await app.request('/ready')).status, 200);
      jobs = false;
      const stopped = await app.request('/ready');
      assert.equal(stopped.status, 503);
      assert.deepEqual(((await stopped.json()) as { checks: object }).checks, { database: 'ok', jobs: 'stopped' });
      jobs = true;
      await storage.close();
      const gone = await app.request('/ready');
      assert.equal(gone.status, 503);
      assert.equal(((await gone.json()) as { checks: { database: string } }).checks.database, 'unavailable');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('serves /metrics without a token on METRICS_PORT, and not on the main port', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'slk-metrics-'));
    const service = await startService({ config: readConfig({ DATA_DIR: dir, HOST: '127.0.0.1', PORT: '0', METRICS_PORT: '0', ADMIN_TOKEN, SANDBOX_NETWORKS: 'off' }) });
    try {
      assert.ok(service.metricsUrl);
      const metrics = await fetch(service.metricsUrl);
      assert.equal(metrics.status, 200);
      assert.match(await metrics.text(), /# TYPE slk_http_requests_total counter/);
      assert.equal((await fetch(`${service.url}/metrics`, { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } })).status, 404);
    } finally {
      await service.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
