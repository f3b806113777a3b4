/**
 * @module
 * A request id per request: the caller's `X-Request-Id` when it is a plain token (so a proxy's id follows the
 * request), a fresh one otherwise; echoed in the response and written on the access log line.
 */
import { randomUUID } from 'node:crypto';

const ACCEPTED = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdFrom(header: string | undefined): string {
  return header !== undefined && ACCEPTED.test(header) ? header : randomUUID();
}
