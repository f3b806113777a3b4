/**
 * @module
 * Serves the widget's script-tag build (dist/cdn/social-link.js, `npm run build:cdn`), public to every origin
 * (module scripts load in CORS mode), at three kinds of address, like the CDNs integrators already trust:
 * - `/widget/<version>/social-link.js` (e.g. `/widget/0.1.0/…`): this exact build, immutable, cached a year; use it
 *   with the `integrity` hash from the manifest.
 * - `/widget/v1/social-link.js`: the channel of protocol version 1; it follows new releases but never crosses a
 *   breaking change (that would be protocol version 2, `/widget/v2/`). Cached 5 minutes.
 * - `/widget/social-link.js`: the unversioned address of earlier releases, kept; the same as the channel.
 * - `/widget/manifest.json`: `{latest, channels, versions: {<version>: {url, integrity}}}` with the SRI hash.
 * - `/widget/<locale>.js` (e.g. `pt-BR.js`): the widget's texts of one locale, which the build imports on demand.
 * The service holds one build, so only its own version is served; other versions answer 404.
 */
import { Hono, type Context } from 'hono';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { PROTOCOL_VERSION } from '../../../../src/protocol/index.js';
import type { AppEnv } from '../../context.js';
import { ApiError } from '../../core/errors.js';
import { repoPath } from '../../paths.js';

const BUNDLE = repoPath('dist/cdn/social-link.js');
/** The widget's texts of one locale, loaded on demand (`<locale>.js`, e.g. `pt-BR.js`). */
const LOCALE_CHUNK = /^[a-z]{2}(-[A-Z]{2})?\.js$/;
const PACKAGE_JSON = repoPath('package.json');

/** The published package's version: the version of the widget build this service serves. */
export const WIDGET_VERSION = (JSON.parse(readFileSync(PACKAGE_JSON, 'utf8')) as { version: string }).version;
export const WIDGET_CHANNEL = `v${PROTOCOL_VERSION}`;

const IMMUTABLE = 'public, max-age=31536000, immutable';
const CHANNEL = 'public, max-age=300';

/** `sha384-…` of the build, as `<script integrity>` expects it. */
export function integrityOf(bytes: Uint8Array): string {
  return `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
}


function notBuilt(c: Context<AppEnv>) {
  return c.text('The widget bundle is not built: run `npm run build:cdn`.', 503);
}

/** `bundlePath`: the build to serve (tests pass their own file). */
export function widgetBundleRoutes(bundlePath = BUNDLE): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const bundle = async (): Promise<Buffer | null> => (existsSync(bundlePath) ? readFile(bundlePath) : null);
  const serve = async (c: Context<AppEnv>, cacheControl: string) => {
    const bytes = await bundle();
    if (!bytes) return notBuilt(c);
    return c.body(new Uint8Array(bytes), 200, {
      'Content-Type': 'text/javascript; charset=utf-8',
      'Access-Control-Allow-Origin': '*',
      'Cache-Control': cacheControl,
    });
  };

  routes.get('/social-link.js', (c) => serve(c, CHANNEL));
  routes.get('/manifest.json', async (c) => {
    const bytes = await bundle();
    if (!bytes) return notBuilt(c);
    return c.json(
      {
        latest: WIDGET_VERSION,
        channels: { [WIDGET_CHANNEL]: WIDGET_VERSION },
        versions: { [WIDGET_VERSION]: { url: `/widget/${WIDGET_VERSION}/social-link.js`, integrity: integrityOf(bytes) } },
      },
      200,
      { 'Access-Control-Allow-Origin': '*', 'Cache-Control': CHANNEL },
    );
  });
  routes.get('/:version/social-link.js', (c) => {
    const version = c.req.param('version');
    if (version === WIDGET_CHANNEL) return serve(c, CHANNEL);
    if (version === WIDGET_VERSION) return serve(c, IMMUTABLE);
    const error = new ApiError(404, 101, `No widget version ${JSON.stringify(version)} here; see /widget/manifest.json.`, { action: 'widget' });
    return c.json(error.toEnvelope(), 404);
  });
  // The locale chunks sit next to the build they belong to.
  routes.get('/:file', async (c) => {
    const name = c.req.param('file');
    const file = join(dirname(bundlePath), name);
    if (!LOCALE_CHUNK.test(name) || !existsSync(file)) return c.text('Not found', 404);
    return c.body(await readFile(file), 200, {
      'Content-Type': 'text/javascript; charset=utf-8',
      'Access-Control-Allow-Origin': '*',
      'Cache-Control': 'public, max-age=300',
    });
  });
  return routes;
}
