/**
 * @module
 * The error every client call throws: the spec's envelope (section 7) as an Error, matched on `code`.
 */
import type { ErrorEnvelope } from '../protocol/index.js';

export class LinkApiError extends Error {
  /** HTTP status; 0 when the request never got an answer. */
  readonly status: number;
  /** The spec's numeric code (for example 101, 163, 188, 501). Match on this, not on the message. */
  readonly code: number;
  readonly action: string;
  readonly details: unknown;
  readonly retryAvailable: boolean;
  readonly relink: boolean;

  constructor(status: number, envelope: ErrorEnvelope, options?: { cause?: unknown }) {
    super(envelope.message, options);
    this.name = 'LinkApiError';
    this.status = status;
    this.code = envelope.code;
    this.action = envelope.action;
    this.details = envelope.details;
    this.retryAvailable = envelope.retryAvailable ?? false;
    this.relink = envelope.relink ?? false;
  }
}

/** Codes the client itself uses when the service gave no envelope. */
export const CLIENT_ERROR_CODES = {
  /** The request failed before an answer (network down, aborted, timeout). */
  network: 0,
  /** The service answered with something that is not the documented shape. */
  invalidResponse: -1,
} as const;
