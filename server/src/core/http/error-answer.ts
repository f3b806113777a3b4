/**
 * @module
 * What a thrown error becomes on the wire, for the Hono app's `onError` and the routes served below Hono alike:
 * an ApiError its own envelope, status and headers (e.g. `Retry-After`); PostgreSQL's refusal of a NUL character
 * the client's 400; anything else a 500 whose details go to the operator's log only.
 */
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ErrorEnvelope } from '@social-link-kit/protocol';
import { isNulCharacterError } from '../db/nul-character-error.js';
import { ApiError, badRequest } from '../errors.js';

export interface ErrorAnswer {
  status: ContentfulStatusCode;
  envelope: ErrorEnvelope;
  headers: Record<string, string>;
}

const NO_HEADERS: Record<string, string> = Object.freeze({}) as Record<string, string>;

/**
 * `where` names the request for the log line of an unexpected error: method, route pattern (never the path, which
 * can hold a secret) and request id.
 */
export function answerForError(error: unknown, log: (line: string) => void, where: { method: string; route: string; requestId: string }): ErrorAnswer {
  if (error instanceof ApiError) return { status: error.status, envelope: error.toEnvelope(), headers: error.headers };
  if (isNulCharacterError(error)) {
    const refused = badRequest('The request holds a NUL character (%00), which no field accepts.', undefined, 'request');
    return { status: 400, envelope: refused.toEnvelope(), headers: NO_HEADERS };
  }
  log(`unhandled error on ${where.method} ${where.route} (request ${where.requestId}): ${error instanceof Error ? error.stack : String(error)}`);
  const internal = new ApiError(500, 500, 'Internal error. Nothing was changed; try again.', { retryAvailable: true });
  return { status: 500, envelope: internal.toEnvelope(), headers: NO_HEADERS };
}
