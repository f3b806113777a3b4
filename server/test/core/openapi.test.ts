/**
 * The OpenAPI document: every route the app really mounts (walked from the Hono app itself, with every optional
 * part switched on) has a row in the route table, every row is a real route, and the document and its reference
 * page are served.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Hono } from 'hono';
import { ROUTE_TABLE } from '../../src/core/openapi/route-table.js';
import { startTestService, type TestService } from '../support/test-service.js';

type Route = { method: string; path: string };

/** Routes as `METHOD /path`, middleware (`ALL`) left out. */
function mountedRoutes(routes: Route[]): string[] {
  const listed = routes.filter((route) => route.method !== 'ALL').map((route) => `${route.method} ${route.path.replace(/(.)\/$/, '$1')}`);
  return [...new Set(listed)].sort();
}

function routesWithoutSchema(routes: Route[]): string[] {
  const documented = new Set(ROUTE_TABLE.map((row) => `${row.method.toUpperCase()} ${row.path}`));
  return mountedRoutes(routes).filter((route) => !documented.has(route));
}

describe('OpenAPI document', () => {
  let svc: TestService;
  before(async () => {
    // Every optional part on: the admin API, metrics on the main port, the sandbox networks, publishing and media.
    svc = await startTestService({ env: { ADMIN_TOKEN: 'admin-token-for-openapi-tests-0123' } });
  });
  after(() => svc.close());

  it('has a schema row for every mounted route', () => {
    assert.deepEqual(routesWithoutSchema(svc.routes), []);
  });

  it('notices a route added without a row', () => {
    const extra = new Hono();
    extra.get('/api/undocumented', (c) => c.text('x'));
    assert.deepEqual(routesWithoutSchema([...svc.routes, ...extra.routes]), ['GET /api/undocumented']);
  });

  it('has no row for a route that does not exist', () => {
    const mounted = new Set(mountedRoutes(svc.routes));
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
