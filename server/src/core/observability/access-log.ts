/**
 * @module
 * The first middleware: a request id (in and out as `X-Request-Id`), one JSON access line per request through
 * `deps.log`, and the request metrics. It logs the matched route pattern, never the path: paths can hold
 * secrets (the telegram webhook's `/webhooks/telegram/<secret>`, the sandbox bot's `/bot<token>/…`) and the
 * query string can hold a link token.
 */
import type { MiddlewareHandler } from 'hono';
import type { AppDeps, AppEnv } from '../../context.js';
import { jsonLogLine } from './json-log.js';
import { requestIdFrom } from './request-id.js';

export function accessLog(deps: Pick<AppDeps, 'log' | 'metrics'>): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const requestId = requestIdFrom(c.req.header('x-request-id'));
    c.set('requestId', requestId);
    // Before next(): a header set after it makes Hono copy the finished response into a streamed one.
    c.header('X-Request-Id', requestId);
    const started = performance.now();
    await next();
    const elapsed = performance.now() - started;
    const status = c.res.status;
    // After next(), routePath is the pattern of the handler that answered; a catch-all means no route matched.
    const route = c.res.status === 404 && /^\/?\*$/.test(c.req.routePath) ? '(unmatched)' : c.req.routePath;
    deps.log(jsonLogLine(status >= 500 ? 'error' : 'info', 'request', { requestId, method: c.req.method, route, status, ms: Math.round(elapsed) }));
    deps.metrics?.request(c.req.method, route, status, elapsed / 1000);
  };
}
