/**
 * @module
 * The one error type routes throw. `app.ts` turns it into the spec's envelope (section 7).
 */
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ErrorCode, type ErrorEnvelope } from '@social-link-kit/protocol';

export interface ApiErrorOptions {
  action?: string;
  details?: unknown;
  retryAvailable?: boolean;
  /** Extra response headers, e.g. `Retry-After`. */
  headers?: Record<string, string>;
}

export class ApiError extends Error {
  readonly status: ContentfulStatusCode;
  readonly code: number;
  readonly action: string;
  readonly details: unknown;
  readonly retryAvailable: boolean | undefined;
  readonly headers: Record<string, string>;

  constructor(status: ContentfulStatusCode, code: number, message: string, options: ApiErrorOptions = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.action = options.action ?? 'request';
    this.details = options.details;
    this.retryAvailable = options.retryAvailable;
    this.headers = options.headers ?? {};
  }

  toEnvelope(): ErrorEnvelope {
    const envelope: ErrorEnvelope = { status: 'error', action: this.action, code: this.code, message: this.message };
    if (this.details !== undefined) envelope.details = this.details;
    if (this.retryAvailable !== undefined) envelope.retryAvailable = this.retryAvailable;
    return envelope;
  }
}

/** A 400 with code 101: the generic "missing or incorrect parameters". */
export function badRequest(message: string, details?: unknown, action = 'request'): ApiError {
  return new ApiError(400, ErrorCode.badRequest, message, { action, details });
}
