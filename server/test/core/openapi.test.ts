/**
 * The OpenAPI documents are built from the routes the app really mounts (walked from the Hono app itself, with
 * every optional part switched on): every route carries its describe() or, under the sandbox, a description of the
 * sandbox's; both documents are served and pass the OpenAPI linter (test/core/openapi-lint.test.ts).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Hono } from 'hono';
import { z } from 'zod';
import { describe as describeRoute, operationsOf, type MountedRoute } from '../../src/core/openapi/describe.js';
import { buildOpenApiDocument, isSandboxPath, UndocumentedRoutesError } from '../../src/core/openapi/openapi-document.js';
import { SANDBOX_KEYS } from '../../src/core/openapi/sandbox-summaries.js';
import { startTestService, type TestService } from '../support/test-service.js';

/** `METHOD path` of every route outside the sandbox that has no describe(). */
function undocumented(routes: readonly MountedRoute[]): string[] {
  return operationsOf(routes)
    .filter((operation) => !operation.doc && !isSandboxPath(operation.path))
    .map((operation) => `${operation.method} ${operation.path}`)
    .sort();
}

type Json = Record<string, any>;
const operationCount = (document: Json) => Object.values(document.paths).reduce((n: number, ops: any) => n + Object.keys(ops).length, 0);

describe('OpenAPI documents', () => {
  let svc: TestService;
  let service: Json;
  let sandbox: Json;
  before(async () => {
    // Every optional part on: the admin API, metrics on the main port, the sandbox networks, publishing and media.
    svc = await startTestService({ env: { ADMIN_TOKEN: 'admin-token-for-openapi-tests-0123' } });
    service = (await (await fetch(`${svc.url}/api/openapi.json`)).json()) as Json;
    sandbox = (await (await fetch(`${svc.url}/api/sandbox/openapi.json`)).json()) as Json;
  });
  after(() => svc.close());

  it('every mounted route outside the sandbox carries its describe()', () => {
    assert.deepEqual(undocumented(svc.routes), []);
  });

  it('shows profile suspension and the widget\'s max-pack rule: the shapes, the lift, the codes and the embed header', () => {
    assert.ok(service.components.schemas.UserResponse.properties.suspension, 'GET /user has no suspension');
    assert.ok(service.components.schemas.ListProfilesResponse.properties.profiles.items.properties.suspension, 'the profile listing has no suspension');
    assert.ok(service.paths['/api/profiles'].patch, 'no PATCH /api/profiles (lifting a suspension)');
    const codesOf = (operation: Json) => JSON.stringify(operation.responses);
    assert.match(codesOf(service.paths['/api/post'].post), /\b105\b/);
    const connect = service.paths['/api/link/connect/{platform}'].post;
    assert.match(codesOf(connect), /\b104\b/);
    assert.ok(connect.parameters.some((p: Json) => p.name === 'X-Link-Embed' && p.in === 'header'), 'no X-Link-Embed header on connect');
  });

  it('notices a route added without describe(), and the document refuses to leave it out', () => {
    const extra = new Hono();
    extra.get('/api/undocumented', (c) => c.text('x'));
    extra.post('/api/documented', describeRoute({ summary: 'x', tag: 'x', auth: 'none', response: z.object({ ok: z.boolean() }) }), (c) => c.text('x'));
    assert.deepEqual(undocumented([...svc.routes, ...extra.routes]), ['GET /api/undocumented']);
    assert.throws(
      () => buildOpenApiDocument({ version: '0', serverUrl: svc.url, operations: operationsOf([...svc.routes, ...extra.routes]), part: 'service' }),
      (error) => error instanceof UndocumentedRoutesError && /GET \/api\/undocumented/.test(error.message),
    );
  });

  it('the two documents hold every mounted operation once, the sandbox apart', () => {
    const operations = operationsOf(svc.routes);
    assert.equal(operationCount(service) + operationCount(sandbox), operations.length);
    assert.ok(Object.keys(service.paths).every((path) => !isSandboxPath(path)));
    assert.ok(Object.keys(sandbox.paths).every((path) => isSandboxPath(path)));
    assert.ok(service.paths['/api/post'].post);
    assert.ok(sandbox.paths['/api/sandbox/webhook-inbox'].get);
    assert.ok(sandbox.paths['/sandbox/twitter/2/tweets'].post);
  });

  it("every row of the sandbox's summaries is a mounted route", () => {
    const mounted = new Set(operationsOf(svc.routes).map((operation) => `${operation.method} ${operation.path}`));
    assert.deepEqual(SANDBOX_KEYS.filter((key) => !mounted.has(key)), []);
  });

  it('describes request, query, answer and error codes from the protocol schemas', () => {
    assert.equal(service.openapi, '3.1.0');
    const session = service.paths['/api/profiles/link-sessions/{sessionId}'].get;
    assert.equal(session['x-origin'], 'named');
    assert.deepEqual(session.parameters[0], { name: 'sessionId', in: 'path', required: true, schema: { type: 'string' } });
    assert.ok(service.components.schemas.LinkSession.required.includes('completedNetworks'));
    assert.deepEqual(service.components.schemas.ErrorEnvelope.required, ['status', 'action', 'code', 'message']);

    const history = service.paths['/api/history'].get;
    assert.deepEqual(
      history.parameters.filter((p: Json) => p.in === 'query').map((p: Json) => p.name).sort(),
      ['autoRepostId', 'endDate', 'lastDays', 'limit', 'platforms', 'startDate', 'status', 'type'],
    );
    const retry = service.paths['/api/post/retry'].put;
    assert.deepEqual(retry.requestBody.content['application/json'].schema.required, ['id']);
    assert.deepEqual(retry.responses['404'].content['application/json'].schema.allOf[1].properties.code.enum, [101, 103]);
    assert.deepEqual(retry.responses['429'].content['application/json'].schema.allOf[1].properties.code.enum, [106]);
    assert.deepEqual(retry.responses['401'].content['application/json'].schema.allOf[1].properties.code.enum, [102]);
    const create = service.paths['/api/profiles/link-sessions'].post;
    assert.deepEqual(create.responses['429'].content['application/json'].schema.allOf[1].properties.code.enum, [510]);
    assert.ok(service.paths['/api/post'].delete.requestBody);
    assert.ok(service.paths['/api/post'].patch.requestBody);
    // Every $ref points at a schema that exists.
    for (const document of [service, sandbox]) {
      for (const [, ref] of JSON.stringify(document).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)) assert.ok(document.components.schemas[ref!], ref);
    }
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
