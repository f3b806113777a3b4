/**
 * @module
 * The headers every answer carries, whichever path serves it (the Hono app or the routes below it): no referrer,
 * no MIME sniffing, and no caching of anything under `/api/` (answers there hold session state and errors).
 * Names are lower case and in the order a fetch `Headers` object writes them.
 */
const PAGE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
});
const API_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'cache-control': 'no-store', ...PAGE_HEADERS });

/** The common headers of an answer to `path` (without its query string); one shared object, never modify it. */
export function commonHeaders(path: string): Readonly<Record<string, string>> {
  return path.startsWith('/api/') ? API_HEADERS : PAGE_HEADERS;
}
