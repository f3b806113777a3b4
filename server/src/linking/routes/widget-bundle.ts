/**
 * @module
 * Serves the widget's script-tag build (dist/cdn, `npm run build:cdn`; versioned by widget/widget-build.ts), public
 * to every origin (module scripts load in CORS mode), like the CDNs integrators already trust:
 * - `/widget/<build id>/social-link.js` (e.g. `/widget/0.1.0-3f2a9c1b0d/…`): one build, whose bytes never change
 *   (the id hashes them), cached a year as immutable; use it with the `integrity` hash from the manifest. Its locale
 *   chunks are beside it (`/widget/<build id>/de.js`). Builds served before an upgrade stay (DATA_DIR/widget).
 * - `/widget/v1/social-link.js`: the channel of protocol version 1; it follows new builds but never crosses a
 *   breaking change (that would be protocol version 2, `/widget/v2/`). Cached 5 minutes. `/widget/<package
 *   version>/…` (e.g. `0.1.0`, the pinned address of earlier releases) and `/widget/social-link.js` are the same.
 * - `/widget/manifest.json`: `{latest, channels, versions: {<build id>: {url, integrity}}}`, every build served.
 */
import { Hono, type Context } from 'hono';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROTOCOL_VERSION } from '@social-link-kit/protocol';
import type { AppEnv } from '../../context.js';
import { ApiError } from '../../core/errors.js';
import { repoPath } from '../../paths.js';
import { LOCALE_CHUNK, WIDGET_ENTRY, widgetBuilds, type WidgetBuild } from '../../widget/widget-build.js';
import { describe, JS } from '../../core/openapi/describe.js';
import { WidgetManifest } from '@social-link-kit/protocol/api-requests.js';

const CDN_DIR = repoPath('dist/cdn/');

/** The published package's version: the version of the widget build this service serves. */
export const WIDGET_VERSION = (JSON.parse(readFileSync(repoPath('package.json'), 'utf8')) as { version: string }).version;
export const WIDGET_CHANNEL = `v${PROTOCOL_VERSION}`;

const IMMUTABLE = 'public, max-age=31536000, immutable';
const CHANNEL = 'public, max-age=300';

function notBuilt(c: Context<AppEnv>) {
  return c.text('The widget bundle is not built: run `npm run build:cdn`.', 503);
}

function file(c: Context<AppEnv>, build: WidgetBuild | null, name: string, cacheControl: string) {
  if (!build) return notBuilt(c);
  const bytes = build.files.get(name);
  if (!bytes) return c.text('Not found', 404);
  return c.body(new Uint8Array(bytes), 200, {
    'Content-Type': 'text/javascript; charset=utf-8',
    'Access-Control-Allow-Origin': '*',
    'Cache-Control': cacheControl,
  });
}

export interface WidgetRoutesOptions {
  /** Where builds are kept across upgrades: `{dataDir}/widget`. */
  dataDir: string;
  /** The build to serve; tests pass their own folder. */
  cdnDir?: string;
}

export function widgetBundleRoutes({ dataDir, cdnDir = CDN_DIR }: WidgetRoutesOptions): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const builds = widgetBuilds(cdnDir, join(dataDir, 'widget'), WIDGET_VERSION);
  const isFile = (name: string) => name === WIDGET_ENTRY || LOCALE_CHUNK.test(name);

  routes.get('/manifest.json', describe({ summary: 'Widget versions with their SRI hashes', tag: 'Widget', auth: 'none', response: WidgetManifest, name: 'WidgetManifest' }), (c) => {
    const current = builds.current();
    if (!current) return notBuilt(c);
    const versions = Object.fromEntries(
      builds.ids().flatMap((id) => {
        const build = builds.byId(id);
        return build ? [[id, { url: `/widget/${id}/${WIDGET_ENTRY}`, integrity: build.integrity }]] : [];
      }),
    );
    return c.json({ latest: current.id, channels: { [WIDGET_CHANNEL]: current.id }, versions }, 200, { 'Access-Control-Allow-Origin': '*', 'Cache-Control': CHANNEL });
  });
  // The unversioned addresses: the entry and its locale chunks, following the current build.
  routes.get('/:file', describe({ summary: 'The widget (`social-link.js`) or its texts of one locale (`<locale>.js`, loaded on demand by it), following the current build (5 min cache)', tag: 'Widget', auth: 'none', response: JS }), (c) => (isFile(c.req.param('file')) ? file(c, builds.current(), c.req.param('file'), CHANNEL) : c.text('Not found', 404)));
  routes.get('/:version/:file', describe({ summary: 'The widget or a locale file of one build: a build id from the manifest (immutable), or the `v1` channel or package version (5 min cache)', tag: 'Widget', auth: 'none', response: JS }), (c) => {
    const { version, file: name } = c.req.param();
    if (!isFile(name)) return c.text('Not found', 404);
    if (version === WIDGET_CHANNEL || version === WIDGET_VERSION) return file(c, builds.current(), name, CHANNEL);
    const build = builds.byId(version);
    if (build) return file(c, build, name, IMMUTABLE);
    if (!builds.current()) return notBuilt(c);
    const error = new ApiError(404, 101, `No widget version ${JSON.stringify(version)} here; see /widget/manifest.json.`, { action: 'widget' });
    return c.json(error.toEnvelope(), 404);
  });
  return routes;
}
