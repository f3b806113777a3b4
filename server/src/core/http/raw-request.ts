/**
 * @module
 * Reading a plain `node:http` request the way the Hono path reads it, for the routes served below Hono
 * (raw-listener.ts): a header as a fetch `Headers` object gives it, and the JSON body through the same parser.
 */
import type { IncomingMessage } from 'node:http';
import { parseJsonObject } from './read-json.js';

/**
 * A request header as the Hono path reads it through a fetch `Headers` object: every occurrence joined with
 * ", ". Node keeps only the first of some (e.g. a repeated `Authorization`), so the raw header list is read.
 */
export function fetchHeader(incoming: IncomingMessage, lowerCaseName: string): string | undefined {
  const raw = incoming.rawHeaders;
  let value: string | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length === lowerCaseName.length && name.toLowerCase() === lowerCaseName) value = value === undefined ? raw[i + 1]! : `${value}, ${raw[i + 1]!}`;
  }
  return value;
}

/**
 * The body as a JSON object (`{}` when empty), or the 400 for it with `action` in the envelope. The listener only
 * takes bodies of a declared length within `maxBodyBytes`, so they are read whole.
 */
export function readJsonBody(incoming: IncomingMessage, maxBodyBytes: number, action: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    // A client that went away, or goes away mid-body: never wait for an `end` that will not come.
    const gone = () => reject(new Error('The client closed the connection before its request body arrived.'));
    if (incoming.destroyed) return gone();
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      try {
        resolve(parseJsonObject(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks), maxBodyBytes, action));
      } catch (error) {
        reject(error);
      }
    });
    incoming.on('error', reject);
    incoming.on('close', gone);
  });
}
