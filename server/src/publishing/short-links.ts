/**
 * @module
 * `shortenLinks` (max-pack add-on): every http(s) link in a post's text becomes `{PUBLIC_URL}/s/{code}`, served by
 * the service itself (`GET /s/:code` redirects). No outside shortener: the links stay under the integrator's domain.
 */
import { randomBytes } from 'node:crypto';
import { Hono } from 'hono';
import type { SqlDriver, SqlExecutor } from '../core/db/sql-driver.js';
import { describe, content } from '../core/openapi/describe.js';

const LINK = /\bhttps?:\/\/[^\s<>"']+/g;

export function findLinks(text: string): string[] {
  return [...new Set(text.match(LINK) ?? [])];
}

/** Replaces each link in `text` with a short one stored for `profileId`. */
export async function shortenLinksIn(tx: SqlExecutor, text: string, profileId: string, publicUrl: string, now: number): Promise<string> {
  let result = text;
  for (const url of findLinks(text)) {
    if (url.startsWith(`${publicUrl}/s/`)) continue;
    const code = randomBytes(6).toString('base64url');
    await tx.run('INSERT INTO short_links (code, url, profile_id, created_at) VALUES (?, ?, ?, ?)', [code, url, profileId, now]);
    result = result.split(url).join(`${publicUrl}/s/${code}`);
  }
  return result;
}

export function shortLinkRoutes(db: SqlDriver): Hono {
  const routes = new Hono();
  routes.get('/:code', describe({ summary: 'Short link (shortenLinks): redirect to the original URL', tag: 'Posts', auth: 'none', response: content('text/plain', 'Redirect (302).') }), async (c) => {
    const code = c.req.param('code');
    if (!/^[A-Za-z0-9_-]{1,32}$/.test(code)) return c.text('Not found', 404);
    const row = await db.get('SELECT url FROM short_links WHERE code = ?', [code]);
    if (!row) return c.text('Not found', 404);
    return c.redirect(row.url as string, 302);
  });
  return routes;
}
