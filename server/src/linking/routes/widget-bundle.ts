/**
 * @module
 * Serves the widget's script-tag build (dist/cdn/social-link.js, `npm run build:cdn`) at `/widget/social-link.js`,
 * so integrators can load it from the service. Module scripts load in CORS mode, so it is public to every origin.
 */
import { Hono } from 'hono';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { AppEnv } from '../../context.js';

const BUNDLE = fileURLToPath(new URL('../../../../dist/cdn/social-link.js', import.meta.url));

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
  return routes;
}
