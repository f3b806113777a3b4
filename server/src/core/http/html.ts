/**
 * @module
 * What every server-rendered HTML page shares: escaping of interpolated text and the header set (a strict CSP,
 * no caching, no referrer). Each page names only the CSP directives it loosens.
 */

/** Escapes text for HTML content and double- or single-quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** Directives every page starts from: nothing loads unless a page allows it. */
const BASE_POLICY: Record<string, string> = {
  'default-src': "'none'",
  'base-uri': "'none'",
  'form-action': "'none'",
  'frame-ancestors': "'none'",
};

/**
 * The security headers of an HTML page: `Content-Security-Policy` built from the base policy plus `directives`
 * (which add or replace directives, in the order given), `Cache-Control: no-store` and `Referrer-Policy: no-referrer`,
 * plus any `extra` headers.
 */
export function htmlPageHeaders(directives: Record<string, string>, extra: Record<string, string> = {}): Record<string, string> {
  const policy: Record<string, string> = { 'default-src': BASE_POLICY['default-src']!, ...directives };
  for (const [name, value] of Object.entries(BASE_POLICY)) policy[name] ??= value;
  return {
    'Content-Security-Policy': Object.entries(policy)
      .map(([name, value]) => `${name} ${value}`)
      .join('; '),
    'Cache-Control': 'no-store',
    'Referrer-Policy': 'no-referrer',
    ...extra,
  };
}
