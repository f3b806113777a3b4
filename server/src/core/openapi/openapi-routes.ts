/**
 * @module
 * `GET /api/openapi.json` (the generated document) and `GET /api/reference` (the same, as a server-rendered page:
 * no script, no outside hosts, a stylesheet from the service); `GET /api/sandbox/openapi.json`, the sandbox's own
 * document, while the sandbox runs.
 */
import { Hono } from 'hono';
import type { AppDeps } from '../../app-deps.js';
import type { AppEnv } from '../../context.js';
import { escapeHtml, htmlPageHeaders } from '../http/html.js';
import { WIDGET_VERSION } from '../../linking/routes/widget-bundle.js';
import { buildOpenApiDocument } from './openapi-document.js';
import { CSS, HTML, content, describe, type Operation } from './describe.js';

const STYLES = `body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1b1f24}
h2{margin-top:2rem;border-bottom:1px solid #d0d7de}code,pre{font:13px ui-monospace,monospace}
.op{border:1px solid #d0d7de;border-radius:6px;margin:.75rem 0;padding:.5rem .75rem}
.method{display:inline-block;min-width:4.5rem;font-weight:700;text-transform:uppercase}
.origin{float:right;color:#57606a;font-size:13px}pre{background:#f6f8fa;padding:.5rem;overflow:auto;max-height:24rem}`;

type JsonObject = Record<string, any>;

function renderReference(document: JsonObject): string {
  const byTag = new Map<string, string[]>();
  for (const [path, operations] of Object.entries(document.paths as Record<string, JsonObject>)) {
    for (const [method, op] of Object.entries(operations)) {
      const request = op.requestBody?.content?.['application/json']?.schema;
      const answer = op.responses['200'].content;
      const entry = `<div class="op" id="${escapeHtml(op.operationId)}">
<span class="origin">${escapeHtml(op['x-origin'])}</span><span class="method">${escapeHtml(method)}</span> <code>${escapeHtml(path)}</code>
<p>${escapeHtml(op.description)}</p>
${request ? `<details><summary>Request body</summary><pre>${escapeHtml(JSON.stringify(request, null, 2))}</pre></details>` : ''}
<details><summary>Answer</summary><pre>${escapeHtml(JSON.stringify(answer, null, 2))}</pre></details></div>`;
      const tag = op.tags[0] as string;
      byTag.set(tag, [...(byTag.get(tag) ?? []), entry]);
    }
  }
  const sections = [...byTag].map(([tag, entries]) => `<h2>${escapeHtml(tag)}</h2>${entries.join('\n')}`).join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>API reference: ${escapeHtml(document.info.title)}</title><link rel="stylesheet" href="/api/reference.css"></head>
<body><h1>${escapeHtml(document.info.title)} ${escapeHtml(document.info.version)}</h1>
<p>${escapeHtml(document.info.description)} Machine-readable: <a href="/api/openapi.json">/api/openapi.json</a>.
Schemas: <a href="#schemas">components</a>.</p>
${sections}
<h2 id="schemas">Schemas</h2><pre>${escapeHtml(JSON.stringify(document.components.schemas, null, 2))}</pre></body></html>`;
}

/** `operations`: the app's routes with their descriptions, read when the document is first asked for (every
 * route is mounted by then). */
export function openApiRoutes(deps: Pick<AppDeps, 'config'>, operations: () => readonly Operation[], sandboxOn: boolean): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const documents = new Map<'service' | 'sandbox', JsonObject>();
  // Built on first use: publicUrl is final only once the socket listens (port 0 in tests).
  const current = (part: 'service' | 'sandbox' = 'service') => {
    const built = documents.get(part) ?? buildOpenApiDocument({ version: WIDGET_VERSION, serverUrl: deps.config.publicUrl, operations: operations(), part });
    documents.set(part, built);
    return built;
  };
  const openApiJson = content('application/json', 'OpenAPI 3.1.');

  routes.get('/openapi.json', describe({ summary: 'This document', tag: 'Operations', auth: 'none', response: openApiJson }), (c) => c.json(current(), 200, { 'Access-Control-Allow-Origin': '*' }));
  routes.get('/reference', describe({ summary: 'This document as an HTML reference', tag: 'Operations', auth: 'none', response: HTML }), (c) =>
    c.html(renderReference(current()), 200, htmlPageHeaders({ 'style-src': "'self'" })),
  );
  routes.get('/reference.css', describe({ summary: 'Stylesheet of the reference page', tag: 'Operations', auth: 'none', response: CSS }), (c) =>
    c.body(STYLES, 200, { 'Content-Type': 'text/css; charset=utf-8', 'Cache-Control': 'public, max-age=300' }),
  );
  if (sandboxOn) {
    routes.get('/sandbox/openapi.json', describe({ summary: "The sandbox's own OpenAPI document", tag: 'Sandbox', auth: 'none', response: openApiJson }), (c) =>
      c.json(current('sandbox'), 200, { 'Access-Control-Allow-Origin': '*' }),
    );
  }
  return routes;
}
