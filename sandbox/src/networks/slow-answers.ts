/**
 * @module
 * Two answer switches for the sandbox networks, markers in a request's body or address:
 * - `[[slow:MS]]` (MS up to 60000): answered MS milliseconds late, as a network that takes its time (a call that
 *   outlasts the job lease, issue 30 case 1);
 * - `[[reset]]`: the request is carried out (the post is made), then the connection is cut before the answer, as a
 *   connection reset after the network committed.
 * They are markers of their own, not `[[fault:…]]` codes, because the request still succeeds on the network: the
 * networks that check fault codes leave them alone. The crash matrix and the simulation (npm run simulate) use them.
 */
import type { IncomingMessage } from 'node:http';
import type { MiddlewareHandler } from 'hono';
import { setTimeout as sleep } from 'node:timers/promises';

const MARKER = /\[\[slow:(\d{1,5})\]\]/;
const RESET = '[[reset]]';
const MAX_DELAY_MS = 60_000;
/** Bodies read for the marker: text only, and small (media uploads are never scanned). */
const TEXT_BODY = /^(application\/(json|x-www-form-urlencoded)|text\/)/;
const MAX_SCANNED_BYTES = 64 * 1024;

/** The delay a marker asks for; null without one. */
export function slowMarker(text: string): number | null {
  const match = MARKER.exec(text);
  return match ? Math.min(Number(match[1]), MAX_DELAY_MS) : null;
}

/** Form and address encoding undone; a malformed escape leaves the text as it is (no marker found there). */
function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

export function slowAnswers(): MiddlewareHandler {
  return async (c, next) => {
    let text = decoded(c.req.url);
    const type = c.req.header('content-type') ?? '';
    const length = Number(c.req.header('content-length') ?? MAX_SCANNED_BYTES);
    if (c.req.raw.body && TEXT_BODY.test(type) && length <= MAX_SCANNED_BYTES) {
      // A clone, so the route still reads the body itself.
      const body = await c.req.raw.clone().text();
      text += type.includes('urlencoded') ? decoded(body) : body;
    }
    const delay = slowMarker(text);
    if (delay !== null) await sleep(delay);
    await next();
    // The node server's request (absent under app.request in tests): its socket is cut before the answer is written.
    if (text.includes(RESET)) (c.env as { incoming?: IncomingMessage } | undefined)?.incoming?.socket.destroy();
  };
}
