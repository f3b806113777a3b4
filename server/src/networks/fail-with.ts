/**
 * @module
 * The classifiers' shorthand for a failure: `failWith(details)` gives `fail(code, message, retryAvailable?, extra?)`,
 * whose failures all carry the network answer's details (a failure may replace them through `extra`).
 */
import type { PublishFailure } from './publish-adapter.js';

export function failWith(details?: Record<string, unknown>) {
  return (code: number, message: string, retryAvailable = false, extra: Partial<PublishFailure> = {}): PublishFailure => ({
    kind: 'failed',
    code,
    message,
    retryAvailable,
    relink: false,
    ...(details && { details }),
    ...extra,
  });
}
