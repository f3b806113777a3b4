/**
 * @module
 * The first middleware: a request id (in and out as `X-Request-Id`), one JSON access line per request through
 * `deps.log`, and the request metrics. It logs the matched route pattern, never the path: paths can hold
 * secrets (the telegram webhook's `/webhooks/telegram/<secret>`, the sandbox bot's `/bot<token>/…`) and the
 * query string can hold a link token. The routes served below Hono (core/http/raw-listener.ts) record their
 * requests through the same `recordRequest`.
 */
import type { MiddlewareHandler } from 'hono';
import type { AppDeps } from '../../app-deps.js';
import type { AppEnv } from '../../context.js';
import { requestArrived } from '../db/commit-watch.js';
import { accessLogLine } from './json-log.js';
import { requestIdFrom } from './request-id.js';

export interface RequestRecord {
  requestId: string;
  method: string;
  /** The route pattern that answered, e.g. `/api/profiles/link-sessions/:sessionId`, or `(unmatched)`. */
  route: string;
  status: number;
  elapsedMs: number;
}

/** The access line and the metrics of one answered request. */
export function recordRequest(deps: Pick<AppDeps, 'log' | 'metrics'>, { requestId, method, route, status, elapsedMs }: RequestRecord): void {
  deps.log(accessLogLine(status >= 500 ? 'error' : 'info', requestId, method, route, status, Math.round(elapsedMs)));
  deps.metrics?.request(method, route, status, elapsedMs / 1000);
}

export function accessLog(deps: Pick<AppDeps, 'log' | 'metrics'>): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    // The first thing each request meets on the Hono path (the raw listener says it too, when it is in front).
    requestArrived();
    const requestId = requestIdFrom(c.req.header('x-request-id'));
    c.set('requestId', requestId);
    // Before next(): a header set after it makes Hono copy the finished response into a streamed one.
    c.header('X-Request-Id', requestId);
    const started = performance.now();
    await next();
    const elapsedMs = performance.now() - started;
    const status = c.res.status;
    // After next(), routePath is the pattern of the handler that answered; a catch-all means no route matched.
    const route = status === 404 && /^\/?\*$/.test(c.req.routePath) ? '(unmatched)' : c.req.routePath;
    recordRequest(deps, { requestId, method: c.req.method, route, status, elapsedMs });
  };
}
