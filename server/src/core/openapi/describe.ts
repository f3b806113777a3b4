/**
 * @module
 * `describe({...})`: an operation's OpenAPI description, written where the route is declared, as the first
 * handler of the route (`routes.post('/post', describe({ summary, request, response, errors }), handler)`). It
 * passes the request on untouched; the document (openapi-document.ts) is built by walking the Hono app's routes and
 * reading these descriptions back, so a route added without one has no operation and fails test/core/openapi.test.ts.
 *
 * Hand-written rather than hono-openapi or @hono/zod-openapi: both validate requests themselves (changing answers
 * and their error envelopes) or need every router rewritten as an OpenAPIHono; here the zod schemas of the
 * protocol already exist and zod 4 writes their JSON Schema (`z.toJSONSchema`).
 */
import type { MiddlewareHandler } from 'hono';
import type { $ZodType } from 'zod/v4/core';

export type Auth = 'apiKey' | 'apiKeyAndProfileKey' | 'linkToken' | 'adminToken' | 'none' | 'telegramSecret';

/** A non-JSON answer (a page, a script, a redirect, a file). */
export interface OtherContent {
  contentType: string;
  description: string;
}

export interface OperationDoc {
  summary: string;
  tag: string;
  auth: Auth;
  /** `spec` = the path and fields are the spec's; `named` = the spec names the operation but not its path or some
   * fields (ours are spelled out in `ours`); `service` (the default) = ours alone. */
  origin?: 'spec' | 'named' | 'service';
  ours?: string;
  /** The JSON body. */
  request?: $ZodType;
  /** The query string, as an object schema. */
  query?: $ZodType;
  /** A JSON answer's schema, or the content type of a non-JSON answer. */
  response: $ZodType | OtherContent;
  /** The JSON answer's name in components.schemas. */
  name?: string;
  /** Other JSON answers the operation can give, by name (listed as oneOf). */
  alternatives?: Record<string, $ZodType>;
  /** The error codes (spec 7, protocol error-table.ts) this operation can answer, beyond those of its `auth`;
   * `[code, httpStatus]` where the status is not the table's (101 answers 404 for an unknown id). */
  errors?: readonly ErrorAnswer[];
}

export type ErrorAnswer = number | readonly [code: number, httpStatus: number];

/** 101 as a 404: an id or route that does not exist. */
export const NOT_FOUND: ErrorAnswer = [101, 404];

const OPERATION = Symbol('openapi operation');
type Described = MiddlewareHandler & { [OPERATION]: OperationDoc };

export function describe(doc: OperationDoc): MiddlewareHandler {
  const passOn: MiddlewareHandler = async (_c, next) => {
    await next();
  };
  return Object.assign(passOn, { [OPERATION]: doc });
}

/** A non-JSON answer. */
export const content = (contentType: string, description: string): OtherContent => ({ contentType, description });
export const HTML = content('text/html', 'An HTML page (CSP without inline script).');
export const CSS = content('text/css', 'Stylesheet.');
export const JS = content('text/javascript', 'Script.');
export const FILE = content('application/octet-stream', 'A media file (image or video).');
export const jsonAnswer = (description: string) => content('application/json', description);

/** The description a route handler carries; Hono wraps handlers of a sub-app with its own onError (the original
 * is kept under `__COMPOSED_HANDLER`). */
export function operationDocOf(handler: unknown): OperationDoc | undefined {
  if (typeof handler !== 'function') return undefined;
  const described = (handler as Partial<Described>)[OPERATION];
  if (described) return described;
  const inner = (handler as unknown as Record<string, unknown>).__COMPOSED_HANDLER;
  return inner && inner !== handler ? operationDocOf(inner) : undefined;
}

export interface MountedRoute {
  method: string;
  path: string;
  handler: unknown;
}

export interface Operation {
  method: string;
  /** The Hono pattern, `:param` style. */
  path: string;
  doc: OperationDoc | undefined;
}

/** Every mounted `METHOD path` (middleware, `ALL`, left out) with its description, if it has one. */
export function operationsOf(routes: readonly MountedRoute[]): Operation[] {
  const byKey = new Map<string, Operation>();
  for (const route of routes) {
    if (route.method === 'ALL') continue;
    const path = route.path.replace(/(.)\/$/, '$1');
    const key = `${route.method} ${path}`;
    const operation = byKey.get(key) ?? { method: route.method, path, doc: undefined };
    operation.doc ??= operationDocOf(route.handler);
    byKey.set(key, operation);
  }
  return [...byKey.values()];
}
