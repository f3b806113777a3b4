/**
 * @module
 * The OpenAPI 3.1 document, generated from route-table.ts and the protocol's zod schemas (zod 4's JSON Schema
 * output, draft 2020-12, which OpenAPI 3.1 uses as is). Nothing here describes a field by hand.
 */
import { toJSONSchema, type $ZodType } from 'zod/v4/core';
import { ErrorEnvelope } from '@social-link-kit/protocol';
import { ROUTE_TABLE, type Auth, type RouteDoc } from './route-table.js';

type JsonObject = Record<string, unknown>;

function jsonSchema(schema: $ZodType, io: 'input' | 'output'): JsonObject {
  const { $schema: _ignored, ...rest } = toJSONSchema(schema, { target: 'draft-2020-12', unrepresentable: 'any', io }) as JsonObject;
  return rest;
}

/** `/a/:id/b` → `/a/{id}/b`; an optional `:part?` → `{part}`; a trailing wildcard `/*` → `/{rest}` (OpenAPI has neither). */
export function openApiPath(honoPath: string): string {
  return honoPath.replace(/:([A-Za-z0-9_]+)\??/g, '{$1}').replace(/\/\*$/, '/{rest}');
}

const SECURITY: Record<Auth, JsonObject[]> = {
  apiKey: [{ apiKey: [] }],
  apiKeyAndProfileKey: [{ apiKey: [] }, { apiKey: [], profileKey: [] }],
  linkToken: [{ linkToken: [] }],
  adminToken: [{ adminToken: [] }],
  telegramSecret: [{ telegramSecret: [] }],
  none: [],
};

function isSchema(response: RouteDoc['response']): response is $ZodType {
  return !('contentType' in response);
}

export function buildOpenApiDocument(options: { version: string; serverUrl: string }): JsonObject {
  const schemas: JsonObject = { ErrorEnvelope: jsonSchema(ErrorEnvelope, 'output') };
  const paths: Record<string, JsonObject> = {};
  for (const route of ROUTE_TABLE) {
    const path = openApiPath(route.path);
    const parameters = [...path.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((match) => ({
      name: match[1],
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    if (route.auth === 'apiKeyAndProfileKey') {
      parameters.push({ name: 'Profile-Key', in: 'header', required: false, schema: { type: 'string' } } as (typeof parameters)[number]);
    }
    let success: JsonObject;
    if (isSchema(route.response)) {
      const schema = jsonSchema(route.response, 'output');
      if (route.name) schemas[route.name] = schema;
      success = {
        description: 'Success',
        content: { 'application/json': { schema: route.name ? { $ref: `#/components/schemas/${route.name}` } : schema } },
      };
    } else {
      success = { description: route.response.description, content: { [route.response.contentType]: {} } };
    }
    const ours = route.origin === 'named' ? ` Not shown by the spec, ours: ${route.ours}.` : route.origin === 'service' ? ' Ours (not in the spec).' : '';
    paths[path] ??= {};
    paths[path][route.method] = {
      summary: route.summary,
      description: `${route.summary}.${ours}`,
      tags: [route.tag],
      operationId: `${route.method}${path.replace(/[^A-Za-z0-9]+(.)?/g, (_m, ch: string | undefined) => (ch ?? '').toUpperCase())}`,
      'x-origin': route.origin,
      ...(route.ours && { 'x-ours': route.ours }),
      ...(parameters.length > 0 && { parameters }),
      security: SECURITY[route.auth],
      ...(route.request && { requestBody: { required: false, content: { 'application/json': { schema: jsonSchema(route.request, 'input') } } } }),
      responses: {
        '200': success,
        default: { description: 'The error envelope (spec section 7)', content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } } },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'social-link-kit service',
      version: options.version,
      description:
        'Generated from the protocol schemas (src/protocol). `x-origin`: `spec` = path and fields as in the spec; `named` = the spec does not show the path or some fields and `x-ours` names ours; `service` = ours alone.',
    },
    servers: [{ url: options.serverUrl }],
    paths,
    components: {
      schemas,
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API key> (spec 5.1).' },
        profileKey: { type: 'apiKey', in: 'header', name: 'Profile-Key', description: 'Selects a user profile (spec 5.2).' },
        linkToken: { type: 'http', scheme: 'bearer', description: "The link session's token (the hosted page only)." },
        adminToken: { type: 'http', scheme: 'bearer', description: 'ADMIN_TOKEN.' },
        telegramSecret: { type: 'apiKey', in: 'header', name: 'X-Telegram-Bot-Api-Secret-Token', description: 'TELEGRAM_WEBHOOK_SECRET, also in the path.' },
      },
    },
  };
}
