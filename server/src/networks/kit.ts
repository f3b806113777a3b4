/**
 * @module
 * The helpers every adapter shares, written once: a failure value, and telling one apart from a result.
 */
import type { PublishFailure } from './publish-adapter.js';

/** A failure the network (or the adapter's own check) gave: not retried and no relink unless `extra` says so. */
export function failure(code: number, message: string, extra: Partial<PublishFailure> = {}): PublishFailure {
  return { kind: 'failed', code, message, retryAvailable: false, relink: false, ...extra };
}

export function isFailure(value: unknown): value is PublishFailure {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'failed';
}
