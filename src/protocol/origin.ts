/**
 * @module
 * Origin helpers shared by the server (validating a session's `origin`) and the browser code
 * (deciding where a message may go). Exact string matching only, never `indexOf` or prefixes.
 */

/** Where the outcome of a link session is delivered. */
export type SessionOrigin =
  | { kind: 'web'; origin: string }
  | { kind: 'app'; scheme: string; url: string };

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);
/** Schemes that must never be treated as a native app's return address. */
const FORBIDDEN_SCHEMES = new Set(['http', 'https', 'javascript', 'data', 'file', 'blob', 'about', 'ftp', 'ws', 'wss']);
const APP_SCHEME = /^([a-z][a-z0-9+-]*(?:\.[a-z0-9+-]+)+):/i;

/**
 * Parses a session `origin`: an https origin (http only on loopback, for development), or a native app's
 * reverse-DNS custom scheme URL such as `com.example.app:/linked`. Returns `null` for anything else,
 * including `null`, `*`, paths after a web origin and bare schemes like `myapp:`.
 */
export function parseSessionOrigin(value: unknown): SessionOrigin | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2048) return null;
  const app = APP_SCHEME.exec(value);
  if (app && !FORBIDDEN_SCHEMES.has(app[1]!.toLowerCase())) {
    return { kind: 'app', scheme: app[1]!.toLowerCase(), url: value };
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  const secure = url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));
  if (!secure || url.origin === 'null' || url.username || url.password) return null;
  // Only a serialized origin is accepted: no path, query or fragment.
  if (value !== url.origin && value !== `${url.origin}/`) return null;
  return { kind: 'web', origin: url.origin };
}

/** The origin of an absolute URL, or null. */
export function originOf(url: string): string | null {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}
