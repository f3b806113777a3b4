/**
 * @module
 * A plain `node:http` request listener in front of the Hono app, for the few hot routes a bare Hono route is
 * already too slow for (building fetch Request/Response objects, converting headers and routing cost about 40 % of
 * a bare node:http server's throughput on its own). It answers exactly as the Hono app would: the same route
 * functions, auth, body parsing, error envelopes, common headers, request id, access line and metrics, all shared
 * with the Hono path. Anything it does not take as is (another method or path, a percent-encoded or odd path, a
 * chunked or oversized body, `Expect`, an odd Host header) goes to the Hono listener unchanged.
 * With an admission gate (admission.ts), a route with an `admissionKey` runs once the gate admits it, after its
 * auth; every other request, here or on the Hono path, tells the gate it arrived.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { AppDeps } from '../../app-deps.js';
import type { AdmissionGate } from './admission.js';
import { requestArrived } from '../db/commit-watch.js';
import { recordRequest } from '../observability/access-log.js';
import { requestIdFrom } from '../observability/request-id.js';
import { commonHeaders } from './common-headers.js';
import { answerForError } from './error-answer.js';
import { fetchHeader } from './raw-request.js';

export interface RawRoute<Caller> {
  method: 'GET' | 'POST';
  /** The exact path; for a route with a parameter, the path up to it, ending in `/`. */
  path: string;
  hasParam: boolean;
  /**
   * Only requests whose query string is plain (letters, digits and `_.,:=&-`: nothing to decode, as
   * `PLAIN_QUERY`) are served here, so a query Hono's URL handling might read otherwise goes to Hono.
   */
  plainQuery?: boolean;
  /** The Hono route pattern, written on the access line and the metrics as the Hono path writes it. */
  pattern: string;
  /** The Hono pattern of the auth middleware: an auth failure is logged under it, as the Hono path logs it. */
  authPattern: string;
  /**
   * The caller (headers read with raw-request.ts's `fetchHeader`); throws the ApiError to answer. `param` as
   * `answer` gets it, for a caller read in the same statement as its answer.
   */
  authenticate(incoming: IncomingMessage, param: string): Promise<Caller>;
  /**
   * The JSON answer (status 200, or a `JsonWithStatus`; a `JsonText` is written as it is), or a thrown ApiError. `param` is the path segment after `path` (never
   * percent-encoded), '' for a route without one; the body is read with raw-request.ts's `readJsonBody`.
   */
  answer(caller: Caller, param: string, incoming: IncomingMessage): Promise<unknown>;
  /** Set on the routes the admission gate paces (`POST /api/post`): the key whose creates wait in one FIFO queue. */
  admissionKey?(caller: Caller): string;
}

/** An answer already serialised (kept in memory by its route): written without JSON.stringify. */
export class JsonText {
  constructor(readonly text: string) {}
}

/** A JSON answer with another status than 200 (as `c.json(body, status)` writes it on the Hono path). */
export class JsonWithStatus {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {}
}

/** A query string served here: nothing percent-encoded, no `+`, no fragment; anything else goes to Hono. */
const PLAIN_QUERY = /^[A-Za-z0-9_.,:=&-]*$/;

/** A path parameter served here: ids are letters, digits, `_` and `-`; anything else (`%`, `.`) goes to Hono. */
const PLAIN_PARAM = /^[A-Za-z0-9_-]+$/;
/**
 * Host values @hono/node-server takes as they are, without parsing a URL; only requests with one are served here,
 * so a Host header the adapter would refuse still gets the adapter's answer.
 */
const PLAIN_HOST = /^[a-z0-9._-]+(?::(?:[1-5]\d{3,4}|[6-9]\d{3}))?$/;

export function rawRouteListener<Caller>(
  deps: Pick<AppDeps, 'log' | 'metrics' | 'config'>,
  routes: readonly RawRoute<Caller>[],
  fallback: RequestListener,
  gate: AdmissionGate | null = null,
): RequestListener {
  return (incoming, outgoing) => {
    requestArrived();
    const started = performance.now();
    const found = routeFor(routes, incoming, deps.config.maxBodyBytes);
    if (!found || !found.route.admissionKey) gate?.otherArrived();
    if (!found) return fallback(incoming, outgoing);
    // serve() answers every error itself; should writing or logging fail, drop the connection rather than hang it.
    serve(deps, found.route, found.param, incoming, outgoing, started, gate).catch(() => outgoing.destroy());
  };
}

function routeFor<Caller>(routes: readonly RawRoute<Caller>[], incoming: IncomingMessage, maxBodyBytes: number) {
  const { method, url, headers } = incoming;
  if (url === undefined || url.charCodeAt(0) !== 47 /* / */ || headers.host === undefined || !PLAIN_HOST.test(headers.host)) return null;
  if (method === 'POST' && !plainBody(headers, maxBodyBytes)) return null;
  const queryAt = url.indexOf('?');
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  for (const route of routes) {
    if (route.method !== method) continue;
    if (route.plainQuery && queryAt !== -1 && !PLAIN_QUERY.test(url.slice(queryAt + 1))) continue;
    if (!route.hasParam) {
      if (path === route.path) return { route, param: '' };
    } else if (path.startsWith(route.path)) {
      const param = path.slice(route.path.length);
      if (PLAIN_PARAM.test(param)) return { route, param };
    }
  }
  return null;
}

/** A body of a declared length within the limit, sent at once: anything else is left to the Hono path's handling. */
function plainBody(headers: IncomingMessage['headers'], maxBodyBytes: number): boolean {
  const declared = headers['content-length'];
  return declared !== undefined && Number(declared) <= maxBodyBytes && headers['transfer-encoding'] === undefined && headers.expect === undefined;
}

async function serve<Caller>(
  deps: Pick<AppDeps, 'log' | 'metrics' | 'config'>,
  route: RawRoute<Caller>,
  param: string,
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  started: number,
  gate: AdmissionGate | null,
): Promise<void> {
  const requestId = requestIdFrom(fetchHeader(incoming, 'x-request-id'));
  let answeredBy = route.authPattern;
  let status = 200;
  let body: unknown;
  let extraHeaders = NO_EXTRA;
  let admitted = false;
  try {
    const caller = await route.authenticate(incoming, param);
    answeredBy = route.pattern;
    if (gate && route.admissionKey) {
      const waiting = gate.admit(route.admissionKey(caller));
      if (waiting) await waiting;
      admitted = true;
    }
    body = await route.answer(caller, param, incoming);
    if (body instanceof JsonWithStatus) ({ status, body } = body);
  } catch (error) {
    const answer = answerForError(error, deps.log, { method: route.method, route: answeredBy, requestId });
    status = answer.status;
    body = answer.envelope;
    extraHeaders = answer.headers;
  }
  if (admitted) gate!.createDone();
  const text = body instanceof JsonText ? body.text : JSON.stringify(body);
  const length = Buffer.byteLength(text);
  outgoing.writeHead(status, extraHeaders === NO_EXTRA ? plainAnswerHeaders(route.path, requestId, length) : answerHeaders(route.path, requestId, extraHeaders, length));
  outgoing.end(text);
  recordRequest(deps, { requestId, method: route.method, route: answeredBy, status, elapsedMs: performance.now() - started });
}

const NO_EXTRA: Readonly<Record<string, string>> = Object.freeze({});

/** Per path, the headers of a JSON answer without extra headers as a flat list, with the request id and length to fill in. */
const plainLayouts = new Map<string, { list: (string | number)[]; idAt: number; lengthAt: number }>();

/**
 * `answerHeaders(path, requestId, {}, length)` as a flat name, value list (writeHead writes it in the same order):
 * laid out once per path by answerHeaders itself, so each answer only copies it and fills in two values.
 */
function plainAnswerHeaders(path: string, requestId: string, length: number): (string | number)[] {
  let layout = plainLayouts.get(path);
  if (!layout) {
    const list = Object.entries(answerHeaders(path, '', NO_EXTRA, 0)).flat();
    layout = { list, idAt: list.indexOf('x-request-id') + 1, lengthAt: list.indexOf('Content-Length') + 1 };
    plainLayouts.set(path, layout);
  }
  const headers = layout.list.slice();
  headers[layout.idAt] = requestId;
  headers[layout.lengthAt] = length;
  return headers;
}

/**
 * The headers of a JSON answer in the order the Hono path writes them (a fetch `Headers` object sorts names),
 * then the length, as @hono/node-server adds it.
 */
function answerHeaders(path: string, requestId: string, extra: Readonly<Record<string, string>>, length: number): Record<string, string | number> {
  const named: Record<string, string> = { ...commonHeaders(path), 'content-type': 'application/json', 'x-request-id': requestId };
  for (const name in extra) named[name.toLowerCase()] = extra[name]!;
  const headers: Record<string, string | number> = {};
  for (const name of Object.keys(named).sort()) headers[name] = named[name]!;
  headers['Content-Length'] = length;
  return headers;
}
