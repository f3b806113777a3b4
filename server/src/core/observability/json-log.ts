/**
 * @module
 * Structured logs: one JSON object per line (`time`, `level`, `msg`, then fields). JSON.stringify escapes every
 * control character below U+0020 and we escape U+2028/U+2029 too, so a crafted path or header cannot start a
 * forged line. Every line goes through redactSecrets.
 *
 * `deps.log(line)` keeps its plain-string signature: `structuredLog` turns plain lines into `{msg}` objects and
 * passes lines made by `jsonLogLine` through (they are recognised by their fixed opening).
 */
import { redactSecrets } from './redact.js';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const OPENING = '{"time":';

/** The last line jsonLogLine made: already redacted, so structuredLog passes it on without redacting it again. */
let lastMade = '';

/** The ISO text of the last whole second logged, up to its '.': lines of the same second reuse it. */
let cachedSecond = NaN;
let cachedSecondText = '';

/** `new Date(now).toISOString()`, with the date part built once a second instead of on every line. */
function isoTime(now: number): string {
  if (!Number.isInteger(now)) return new Date(now).toISOString();
  const second = Math.floor(now / 1000);
  if (second !== cachedSecond) {
    cachedSecondText = new Date(second * 1000).toISOString().slice(0, -4);
    cachedSecond = second;
  }
  return `${cachedSecondText}${String(now - second * 1000).padStart(3, '0')}Z`;
}

export function jsonLogLine(level: LogLevel, msg: string, fields: Record<string, unknown> = {}, now = Date.now()): string {
  const text = JSON.stringify({ time: isoTime(now), level, msg, ...fields });
  lastMade = redactSecrets(text).replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
  return lastMade;
}

/** What the service writes in a request id (request-id.ts): nothing JSON escapes, no line separator. */
const PLAIN_ID = /^[A-Za-z0-9._:-]*$/;

/** The `"method":…,"route":…` part of access lines, made once per method and route (both the service's own). */
const methodAndRoute = new Map<string, string>();

/**
 * The access line of one request: exactly `jsonLogLine(level, 'request', { requestId, method, route, status, ms })`,
 * made without a JSON object and redacting only what can differ per request. Redaction stays whole: no secret shape
 * crosses a `"` (redact.ts), so redacting each string value alone gives the line redacting the whole would; the
 * time, level, message and numbers hold no shape; method and route are redacted once, with the line they first
 * appear in (server/test/core/access-line.test.ts compares both ways on every route and many request ids).
 */
export function accessLogLine(level: 'info' | 'error', requestId: string, method: string, route: string, status: number, ms: number, now = Date.now()): string {
  if (!PLAIN_ID.test(requestId) || !Number.isFinite(ms)) return jsonLogLine(level, 'request', { requestId, method, route, status, ms }, now);
  const key = `${method} ${route}`;
  let middle = methodAndRoute.get(key);
  if (middle === undefined) {
    // The whole line's way, cut at the fields around: a route or method needing escapes or redaction gets it here.
    const made = jsonLogLine('info', 'request', { requestId: '', method, route, status: 0 }, 0);
    middle = made.slice(made.indexOf('"requestId":""') + '"requestId":""'.length, made.lastIndexOf(',"status":0}'));
    if (methodAndRoute.size >= 1000) methodAndRoute.clear();
    methodAndRoute.set(key, middle);
  }
  lastMade = `{"time":"${isoTime(now)}","level":"${level}","msg":"request","requestId":"${redactSecrets(requestId)}"${middle},"status":${status},"ms":${ms}}`;
  return lastMade;
}

/** Wraps a sink so every line it receives is one redacted JSON object. */
export function structuredLog(sink: (line: string) => void): (line: string) => void {
  return (line) => {
    if (line === lastMade) sink(line);
    else if (line.startsWith(OPENING) && !/[\r\n]/.test(line)) sink(redactSecrets(line));
    else sink(jsonLogLine(/^(unhandled|.*failed)/i.test(line) ? 'error' : 'info', line));
  };
}
