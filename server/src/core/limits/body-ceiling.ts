/**
 * @module
 * A body-size ceiling for the routes outside `/api` that read a body (Telegram webhook, sandbox consent form):
 * without it they would buffer whatever arrives, chunked or with a lying `Content-Length`. API routes read their
 * body with core/http/read-json.ts (MAX_BODY_BYTES), which answers in the route's own `action`, so they are skipped.
 */
import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { badRequest } from '../errors.js';

/** Well above any Telegram update or form post, far below what would strain memory. */
export const OUTSIDE_API_BODY_CEILING = 1024 * 1024;

export function bodyCeiling(maxBytes = OUTSIDE_API_BODY_CEILING): MiddlewareHandler {
  const limit = bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw badRequest(`The request body is larger than ${maxBytes} bytes.`, { maxBytes });
    },
  });
  return async (c, next) => (c.req.path.startsWith('/api/') ? next() : limit(c, next));
}
