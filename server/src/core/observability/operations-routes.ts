/**
 * @module
 * What an orchestrator and a scraper ask (ours, not the spec's):
 * - `GET /health`: the process is up (200, always).
 * - `GET /ready`: the database is reachable and takes a write, and the background jobs run; 503 otherwise.
 * - `GET /metrics`: Prometheus text, behind `ADMIN_TOKEN` (404 without one) unless `METRICS_PORT` serves it apart.
 */
import { Hono } from 'hono';
import type { AppDeps } from '../../app-deps.js';
import type { AppEnv } from '../../context.js';
import { adminTokenMatches } from '../../accounts/admin/admin-auth.js';
import { ApiError } from '../errors.js';
import { ErrorCode } from '@social-link-kit/protocol';
import { OperationsStore } from './operations-store.js';
import type { ServiceMetrics } from './metrics.js';
import { describe, content } from '../openapi/describe.js';
import { HealthResponse, ReadyResponse } from '@social-link-kit/protocol/api-requests.js';

export function healthRoutes(deps: Pick<AppDeps, 'storage' | 'clock' | 'log' | 'jobsRunning'>): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const store = new OperationsStore(deps.storage.driver);

  routes.get('/health', describe({ summary: 'The process is up', tag: 'Operations', auth: 'none', response: HealthResponse, name: 'HealthResponse' }), (c) => c.json({ status: 'ok' }));
  routes.get('/ready', describe({ summary: 'Database reachable and writable, jobs running (503 otherwise)', tag: 'Operations', auth: 'none', response: ReadyResponse, name: 'ReadyResponse' }), async (c) => {
    let database: 'ok' | 'unavailable' = 'ok';
    try {
      await store.touchProbe(deps.clock());
    } catch (error) {
      database = 'unavailable';
      deps.log(`readiness: database check failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    const jobs = deps.jobsRunning === undefined || deps.jobsRunning() ? 'ok' : 'stopped';
    const ready = database === 'ok' && jobs === 'ok';
    c.header('Cache-Control', 'no-store');
    return c.json({ status: ready ? 'ok' : 'unavailable', checks: { database, jobs } }, ready ? 200 : 503);
  });
  return routes;
}

/** `/metrics` on the main port: only with `ADMIN_TOKEN`, and only for its bearer. */
export function metricsRoute(metrics: ServiceMetrics, adminToken: string | null): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  routes.get('/', describe({ summary: 'Prometheus metrics (admin token, or METRICS_PORT)', tag: 'Operations', auth: 'adminToken', response: content('text/plain; version=0.0.4', 'Prometheus text format.') }), async (c) => {
    if (adminToken === null) return c.notFound();
    if (!adminTokenMatches(c.req.header('authorization'), adminToken)) {
      throw new ApiError(401, ErrorCode.apiKeyInvalid, 'Admin token missing or invalid.', { action: 'authorization' });
    }
    return c.body(await metrics.render(), 200, { 'Content-Type': 'text/plain; version=0.0.4; charset=utf-8', 'Cache-Control': 'no-store' });
  });
  return routes;
}

/** The same registry on its own app, for `METRICS_PORT`. */
export function standaloneMetricsApp(metrics: ServiceMetrics): Hono {
  const app = new Hono();
  app.get('/metrics', async (c) => c.body(await metrics.render(), 200, { 'Content-Type': 'text/plain; version=0.0.4; charset=utf-8' }));
  return app;
}

/** The scrape-time gauges every service has. */
export function addStandardCollectors(metrics: ServiceMetrics, deps: Pick<AppDeps, 'storage' | 'clock'>): void {
  const store = new OperationsStore(deps.storage.driver);
  metrics.addCollector({
    name: 'slk_webhook_outbox_rows',
    help: 'Webhook outbox rows by state (pending, late, delivered, failed).',
    read: async () => (await store.webhookOutboxCounts(deps.clock())).map(({ state, count }) => ({ labels: { state }, value: count })),
  });
  metrics.addCollector({
    name: 'slk_jobs',
    help: 'Background jobs by state (due, running, late, failed); absent until the jobs table exists.',
    read: async () => ((await store.jobCounts(deps.clock())) ?? []).map(({ state, count }) => ({ labels: { state }, value: count })),
  });
}
