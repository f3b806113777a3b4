/**
 * @module
 * Reads a JSON object body with a size cap. Empty bodies count as `{}`; anything else that is not a
 * JSON object gets code 101 with a message saying what was wrong. The Hono routes read through
 * `readJsonObject`; the routes served below Hono (core/http/raw-listener.ts) read the bytes themselves and
 * call `parseJsonObject`, so both answer a bad body the same way.
 */
import type { Context } from 'hono';
import { badRequest } from '../errors.js';

const utf8 = new TextDecoder();

export async function readJsonObject(c: Context, maxBytes: number, action = 'request'): Promise<Record<string, unknown>> {
  const declared = Number(c.req.header('content-length') ?? 0);
  if (declared > maxBytes) throw bodyTooLarge(maxBytes, action);
  return parseJsonObject(new Uint8Array(await c.req.arrayBuffer()), maxBytes, action);
}

/** The body's bytes as a JSON object (`{}` when empty), or the 400 that says what is wrong with them. */
export function parseJsonObject(bytes: Uint8Array, maxBytes: number, action = 'request'): Record<string, unknown> {
  if (bytes.byteLength > maxBytes) throw bodyTooLarge(maxBytes, action);
  const text = utf8.decode(bytes).trim();
  if (text === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw badRequest('The request body is not valid JSON.', undefined, action);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw badRequest('The request body must be a JSON object.', undefined, action);
  }
  return value as Record<string, unknown>;
}

function bodyTooLarge(maxBytes: number, action: string) {
  return badRequest(`The request body is larger than ${maxBytes} bytes.`, { maxBytes }, action);
}
