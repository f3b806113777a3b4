/**
 * @module
 * Serves the widget's script-tag build (dist/cdn/social-link.js, `npm run build:cdn`) at `/widget/social-link.js`,
 * with the locale chunks it imports on demand (`/widget/<locale>.js`), so integrators can load it from the service. Module scripts load in CORS mode, so it is public to every origin.
 */
import { Hono } from 'hono';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AppEnv } from '../../context.js';

const CDN_DIST = fileURLToPath(new URL('../../../../dist/cdn/', import.meta.url));
const BUNDLE = join(CDN_DIST, 'social-link.js');
/** The widget's texts of one locale, loaded on demand (`<locale>.js`, e.g. `pt-BR.js`). */
const LOCALE_CHUNK = /^[a-z]{2}(-[A-Z]{2})?\.js$/;

export function widgetBundleRoutes(): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  routes.get('/social-link.js', async (c) => {
    if (!existsSync(BUNDLE)) return c.text('The widget bundle is not built: run `npm run build:cdn`.', 503);
    return c.body(await readFile(BUNDLE), 200, {
      'Content-Type': 'text/javascript; charset=utf-8',
      'Access-Control-Allow-Origin': '*',
      'Cache-Control': 'public, max-age=300',
    });
  });
  routes.get('/:file', async (c) => {
    const name = c.req.param('file');
    const file = join(CDN_DIST, name);
    if (!LOCALE_CHUNK.test(name) || !existsSync(file)) return c.text('Not found', 404);
    return c.body(await readFile(file), 200, {
      'Content-Type': 'text/javascript; charset=utf-8',
      'Access-Control-Allow-Origin': '*',
      'Cache-Control': 'public, max-age=300',
    });
  });
  return routes;
}
