/**
 * @module
 * The one check for request bodies with fields the endpoint does not know: a typo must not be silently ignored.
 */
import { badRequest } from '../errors.js';

/** Throws code 101 with `details.unknownFields` (and the accepted `knownFields`) when `body` has other keys. */
export function rejectUnknownFields(body: Record<string, unknown>, knownFields: readonly string[], action: string): void {
  const unknownFields = Object.keys(body).filter((key) => !knownFields.includes(key));
  if (unknownFields.length === 0) return;
  throw badRequest(`Unknown field(s): ${unknownFields.join(', ')}.`, { unknownFields, knownFields: [...knownFields] }, action);
}
