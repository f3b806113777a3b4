/**
 * @module
 * The OpenAPI 3.1 documents, generated from the routes the app mounts (each carries its `describe()`, describe.ts)
 * and the protocol's zod schemas (zod 4's JSON Schema output, draft 2020-12, which OpenAPI 3.1 uses as is).
 * Nothing here describes a field by hand. Two documents: the service (`/api/openapi.json`) and the sandbox
 * (`/api/sandbox/openapi.json`, only while the sandbox runs).
 */
import { toJSONSchema, type $ZodType } from 'zod/v4/core';
import { ERROR_TABLE, ErrorEnvelope } from '@social-link-kit/protocol';
import { type Auth, type ErrorAnswer, type Operation, type OperationDoc } from './describe.js';
import { sandboxOperationDoc } from './sandbox-summaries.js';
import { EMBED_MODE_HEADER, EMBED_MODES } from '@social-link-kit/protocol/constants.js';

type JsonObject = Record<string, unknown>;

function jsonSchema(schema: $ZodType, io: 'input' | 'output'): JsonObject {
  const { $schema: _ignored, ...rest } = toJSONSchema(schema, { target: 'draft-2020-12', unrepresentable: 'any', io }) as JsonObject;
  return rest;
}

/** `/a/:id/b` → `/a/{id}/b`; `:key{.+}` → `{key}`; a trailing wildcard `/*` → `/{rest}` (OpenAPI has neither). */
export function openApiPath(honoPath: string): string {
  return honoPath
    .replace(/:([A-Za-z0-9_]+)(\{[^}]*\})?\??/g, '{$1}')
    .replace(/\/\*$/, '/{rest}');
}

/** The sandbox's own document: its stand-ins of the networks, its media host, its test switches. */
export const isSandboxPath = (path: string) => /^\/(api\/)?sandbox(\/|$)/.test(path);

const SECURITY: Record<Auth, JsonObject[]> = {
  apiKey: [{ apiKey: [] }],
  apiKeyAndProfileKey: [{ apiKey: [] }, { apiKey: [], profileKey: [] }],
  linkToken: [{ linkToken: [] }],
  adminToken: [{ adminToken: [] }],
  telegramSecret: [{ telegramSecret: [] }],
  none: [],
};

/** Codes every operation of an auth kind can answer (101: a body over the ceiling or malformed; 102/103: the
 * API key and Profile-Key checks of api-key-auth.ts; 501: link-token-auth.ts). */
const AUTH_ERRORS: Record<Auth, ErrorAnswer[]> = {
  apiKey: [101, 102, 103],
  apiKeyAndProfileKey: [101, 102, 103],
  linkToken: [101, 501],
  adminToken: [101, 102],
  telegramSecret: [101],
  none: [101],
};

/** What each tag holds (a tag without a row fails the linter's tag-description rule in openapi-lint.test.ts). */
const TAGS: Record<string, string> = {
  'Link sessions': 'Sessions that let a user link accounts through the widget or the hosted page (spec 4.6, 4.7).',
  Profiles: 'User profiles and their linked accounts (spec 2.3, 2.4).',
  'Legacy JWT links': 'The older link form: a JWT signed with the integration key (spec 5.5).',
  Webhooks: 'Registrations, the delivery log and redelivery (spec 2.5, 4.5, 6).',
  'Hosted page API': "The hosted linking page's own calls, with the link session's token.",
  Browser: 'Pages and redirects a browser opens during linking.',
  Widget: 'The widget bundle and its versions.',
  'Network callbacks': 'Addresses the networks call.',
  Operations: 'Health, readiness, metrics and this document.',
  Admin: 'The operator API (ADMIN_TOKEN).',
  Posts: 'Publishing: create, validate, read, approve, delete, retry, history (spec 2.1-2.3, 3).',
  Media: 'Media checks and converted media for pull-based networks.',
  Analytics: 'Post and account analytics (spec 4.4, docs/analytics.md).',
  Comments: 'Comments on published posts and replies.',
  Automations: 'Comment auto-replies.',
  Moderation: 'Text and media moderation before posting.',
  Sandbox: 'The embedded sandbox: stand-ins of the networks, its media host and test switches.',
};

const ERROR_ROWS = new Map(ERROR_TABLE.map((row) => [row.code, row]));

/** The error answers of an operation, one per HTTP status, each naming its codes (the `code` field's enum). */
function errorResponses(doc: OperationDoc): Record<string, JsonObject> {
  const byStatus = new Map<number, number[]>();
  for (const answer of [...AUTH_ERRORS[doc.auth], ...(doc.errors ?? [])]) {
    const [code, status] = typeof answer === 'number' ? [answer, ERROR_ROWS.get(answer)?.http] : answer;
    if (!ERROR_ROWS.has(code) || status === null || status === undefined || status === 200) {
      throw new Error(`describe(): error code ${code} of "${doc.summary}" is not a whole answer's code in the error table`);
    }
    const codes = byStatus.get(status) ?? [];
    if (!codes.includes(code)) codes.push(code);
    byStatus.set(status, codes);
  }
  const responses: Record<string, JsonObject> = {};
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    const sorted = codes.sort((a, b) => a - b);
    responses[String(status)] = {
      description: sorted.map((code) => `${code}: ${ERROR_ROWS.get(code)!.meaning}`).join('; '),
      content: {
        'application/json': {
          schema: { allOf: [{ $ref: '#/components/schemas/ErrorEnvelope' }, { type: 'object', properties: { code: { enum: sorted } } }] },
        },
      },
    };
  }
  return responses;
}

function parametersOf(path: string, doc: OperationDoc): JsonObject[] {
  const parameters: JsonObject[] = [...path.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((match) => ({
    name: match[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  if (doc.query) {
    const query = jsonSchema(doc.query, 'input') as { properties?: Record<string, JsonObject>; required?: string[] };
    for (const [name, schema] of Object.entries(query.properties ?? {})) {
      const { description, ...rest } = schema;
      parameters.push({ name, in: 'query', required: query.required?.includes(name) ?? false, ...(typeof description === 'string' && { description }), schema: rest });
    }
  }
  if (doc.auth === 'apiKeyAndProfileKey') parameters.push({ name: 'Profile-Key', in: 'header', required: false, schema: { type: 'string' } });
  if (doc.auth === 'linkToken') {
    parameters.push({
      name: EMBED_MODE_HEADER,
      in: 'header',
      required: false,
      description: "How the widget shows the hosted page (spec 5.7: the widget needs the max-pack add-on); absent = direct mode. Connecting and disconnecting answer 403 (104) in either mode without max-pack.",
      schema: { type: 'string', enum: [...EMBED_MODES] },
    });
  }
  return parameters;
}

function operationId(method: string, path: string): string {
  return `${method}${path.replace(/[^A-Za-z0-9]+(.)?/g, (_m, ch: string | undefined) => (ch ?? '').toUpperCase())}`;
}

function operationObject(method: string, path: string, doc: OperationDoc, schemas: JsonObject): JsonObject {
  const answer = 'contentType' in doc.response ? doc.response : null;
  let success: JsonObject;
  if (answer) {
    success = { description: answer.description, content: { [answer.contentType]: {} } };
  } else {
    const schema = jsonSchema(doc.response as $ZodType, 'output');
    if (doc.name) schemas[doc.name] = schema;
    const main = doc.name ? { $ref: `#/components/schemas/${doc.name}` } : schema;
    const others = Object.entries(doc.alternatives ?? {}).map(([name, alternative]) => {
      schemas[name] = jsonSchema(alternative, 'output');
      return { $ref: `#/components/schemas/${name}` };
    });
    success = { description: 'Success', content: { 'application/json': { schema: others.length > 0 ? { oneOf: [main, ...others] } : main } } };
  }
  const origin = doc.origin ?? 'service';
  const ours = origin === 'named' ? ` Not shown by the spec, ours: ${doc.ours}.` : origin === 'service' ? ' Ours (not in the spec).' : '';
  const parameters = parametersOf(path, doc);
  return {
    summary: doc.summary,
    description: `${doc.summary}.${ours}`,
    tags: [doc.tag],
    operationId: operationId(method, path),
    'x-origin': origin,
    ...(doc.ours && { 'x-ours': doc.ours }),
    ...(parameters.length > 0 && { parameters }),
    security: SECURITY[doc.auth],
    ...(doc.request && { requestBody: { required: false, content: { 'application/json': { schema: jsonSchema(doc.request, 'input') } } } }),
    responses: { '200': success, ...errorResponses(doc) },
  };
}

/** The security schemes some operation of `paths` uses. */
function usedSchemes(paths: Record<string, JsonObject>, schemes: Record<string, JsonObject>): Record<string, JsonObject> {
  const used = new Set(
    Object.values(paths).flatMap((operations) => Object.values(operations).flatMap((op) => (op as { security: JsonObject[] }).security.flatMap((entry) => Object.keys(entry)))),
  );
  return Object.fromEntries(Object.entries(schemes).filter(([name]) => used.has(name)));
}

export interface DocumentOptions {
  version: string;
  serverUrl: string;
  /** The app's operations (describe.ts `operationsOf(app.routes)`). */
  operations: readonly Operation[];
  /** `service`: every operation but the sandbox's; `sandbox`: the sandbox's alone. */
  part: 'service' | 'sandbox';
}

/** Thrown for a route without a description: the document would lie by leaving it out. */
export class UndocumentedRoutesError extends Error {}

export function buildOpenApiDocument(options: DocumentOptions): JsonObject {
  const schemas: JsonObject = { ErrorEnvelope: jsonSchema(ErrorEnvelope, 'output') };
  const paths: Record<string, JsonObject> = {};
  const missing: string[] = [];
  const sandbox = options.part === 'sandbox';
  for (const { method, path: honoPath, doc: described } of options.operations) {
    if (isSandboxPath(honoPath) !== sandbox) continue;
    const doc = described ?? (sandbox ? sandboxOperationDoc(method, honoPath) : undefined);
    if (!doc) {
      missing.push(`${method} ${honoPath}`);
      continue;
    }
    const path = openApiPath(honoPath);
    const lower = method.toLowerCase();
    paths[path] ??= {};
    paths[path][lower] = operationObject(lower, path, doc, schemas);
  }
  if (missing.length > 0) throw new UndocumentedRoutesError(`Routes without describe(): ${missing.join(', ')}`);
  return {
    openapi: '3.1.0',
    info: {
      title: sandbox ? 'social-link-kit sandbox' : 'social-link-kit service',
      version: options.version,
      description: sandbox
        ? 'The embedded sandbox (SANDBOX_NETWORKS): stand-ins of the networks\' own APIs that the real adapters talk to, its media host and its test switches. Present only while the sandbox runs. The service itself: /api/openapi.json.'
        : 'Generated from the routes and the protocol schemas (src/protocol). `x-origin`: `spec` = path and fields as in the spec; `named` = the spec does not show the path or some fields and `x-ours` names ours; `service` = ours alone. Each error answer lists its codes (spec section 7). The sandbox has its own document: /api/sandbox/openapi.json.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: options.serverUrl }],
    tags: [...new Set(Object.values(paths).flatMap((operations) => Object.values(operations).map((op) => (op as { tags: string[] }).tags[0]!)))]
      .sort()
      .map((name) => ({ name, ...(TAGS[name] && { description: TAGS[name] }) })),
    paths,
    components: {
      schemas,
      securitySchemes: usedSchemes(paths, {
        apiKey: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API key> (spec 5.1).' },
        profileKey: { type: 'apiKey', in: 'header', name: 'Profile-Key', description: 'Selects a user profile (spec 5.2).' },
        linkToken: { type: 'http', scheme: 'bearer', description: "The link session's token (the hosted page only)." },
        adminToken: { type: 'http', scheme: 'bearer', description: 'ADMIN_TOKEN.' },
        telegramSecret: { type: 'apiKey', in: 'header', name: 'X-Telegram-Bot-Api-Secret-Token', description: 'TELEGRAM_WEBHOOK_SECRET, also in the path.' },
      }),
    },
  };
}

