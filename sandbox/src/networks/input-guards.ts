/**
 * @module
 * PostgreSQL refuses text holding U+0000, so input carrying it must be turned away before it reaches SQL (as a 400,
 * never the database's 500). The sandbox routes check the address here and each body after parsing.
 */
import type { SandboxEnv } from '@social-link-kit/server/sandbox-host.js';
import type { MiddlewareHandler } from 'hono';

export function containsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(containsNul);
  if (value && typeof value === 'object') return Object.entries(value).some(([key, item]) => key.includes('\u0000') || containsNul(item));
  return false;
}

/** Refuses a path or query holding U+0000 (written `%00`). */
export function refuseNulInAddress(): MiddlewareHandler<SandboxEnv> {
  return async (c, next) => {
    const url = new URL(c.req.url);
    let decoded: string | null = null;
    try {
      decoded = decodeURIComponent(url.pathname + url.search);
    } catch {
      // Malformed percent-encoding: refused below like a NUL.
    }
    if (decoded === null || decoded.includes('\u0000')) return c.json({ error: 'InvalidRequest', message: 'Malformed address' }, 400);
    await next();
    return undefined;
  };
}
