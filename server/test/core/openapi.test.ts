/**
 * The OpenAPI document: every route the app really mounts (walked from the Hono app itself, with every optional
 * part switched on) has a row in the route table, every row is a real route, and the document and its reference
 * page are served.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Hono } from 'hono';
import { createApp } from '../../src/app.js';
import { ServiceMetrics } from '../../src/core/observability/metrics.js';
import { ROUTE_TABLE } from '../../src/core/openapi/route-table.js';
import { startTestService, type TestService } from '../support/test-service.js';

/** Routes of the app as `METHOD /path`, middleware (`ALL`) left out. */
function mountedRoutes(app: Hono<any>): string[] {
  const routes = app.routes.filter((route) => route.method !== 'ALL').map((route) => `${route.method} ${route.path.replace(/(.)\/$/, '$1')}`);
  return [...new Set(routes)].sort();
}

function routesWithoutSchema(app: Hono<any>): string[] {
  const documented = new Set(ROUTE_TABLE.map((row) => `${row.method.toUpperCase()} ${row.path}`));
  return mountedRoutes(app).filter((route) => !documented.has(route));
}

describe('OpenAPI document', () => {
  let svc: TestService;
  let app: Hono<any>;
  before(async () => {
    svc = await startTestService({ env: { ADMIN_TOKEN: 'admin-token-for-openapi-tests-0123' } });
    app = createApp({
      config: svc.config,
      storage: svc.storage,
      clock: svc.clock,
      mailer: null,
      log: () => {},
      // Every optional part on: sandbox PDS, admin API, metrics on the main port.
      networks: { sandboxIssuer: 'http://127.0.0.1:1' } as never,
      tokenCipher: svc.tokenCipher,
      limiter: null as never,
      metrics: new ServiceMetrics(),
    });
  });
  after(() => svc.close());

  it('has a schema row for every mounted route', () => {
    assert.deepEqual(routesWithoutSchema(app), []);
  });

  it('notices a route added without a row', () => {
    app.get('/api/undocumented', (c) => c.text('x'));
    assert.deepEqual(routesWithoutSchema(app), ['GET /api/undocumented']);
  });

  it('has no row for a route that does not exist', () => {
    const mounted = new Set(mountedRoutes(app));
    assert.deepEqual(ROUTE_TABLE.map((row) => `${row.method.toUpperCase()} ${row.path}`).filter((row) => !mounted.has(row)), []);
  });

  it('serves the generated OpenAPI 3.1 document', async () => {
    const response = await fetch(`${svc.url}/api/openapi.json`);
    assert.equal(response.status, 200);
    const document = (await response.json()) as Record<string, any>;
    assert.equal(document.openapi, '3.1.0');
    assert.equal(Object.values(document.paths).reduce((n: number, ops: any) => n + Object.keys(ops).length, 0), ROUTE_TABLE.length);
    const session = document.paths['/api/profiles/link-sessions/{sessionId}'].get;
    assert.equal(session['x-origin'], 'named');
    assert.deepEqual(session.parameters[0], { name: 'sessionId', in: 'path', required: true, schema: { type: 'string' } });
    const linkSession = document.components.schemas.LinkSession;
    assert.ok(linkSession.required.includes('completedNetworks'));
    assert.deepEqual(document.components.schemas.ErrorEnvelope.required, ['status', 'action', 'code', 'message']);
    // Every $ref points at a schema that exists.
    for (const [, ref] of JSON.stringify(document).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)) assert.ok(document.components.schemas[ref!], ref);
  });

  it('renders the reference page without script or outside hosts', async () => {
    const response = await fetch(`${svc.url}/api/reference`);
    assert.equal(response.status, 200);
    const csp = response.headers.get('content-security-policy')!;
    assert.match(csp, /default-src 'none'/);
    assert.doesNotMatch(csp, /script-src/);
    const html = await response.text();
    assert.doesNotMatch(html, /<script/i);
    assert.doesNotMatch(html, /https?:\/\/(?!127\.0\.0\.1)/);
    assert.match(html, /\/api\/profiles\/link-sessions/);
    assert.equal((await fetch(`${svc.url}/api/reference.css`)).status, 200);
  });
});
