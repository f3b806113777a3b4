/**
 * The widget's addresses (linking/routes/widget-bundle.ts, widget/widget-build.ts) on a real socket, with a build
 * folder and DATA_DIR of the test's own: a pinned build id serves its entry and its locale chunks immutable, the
 * channel and the older addresses follow the current build, the manifest's SRI hash matches the bytes served, and
 * after an upgrade the earlier build is still served, byte for byte, under its id.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { WIDGET_CHANNEL, WIDGET_VERSION, widgetBundleRoutes } from '../../src/linking/routes/widget-bundle.js';

const sri = (text: string) => `sha384-${createHash('sha384').update(text).digest('base64')}`;

interface Manifest {
  latest: string;
  channels: Record<string, string>;
  versions: Record<string, { url: string; integrity: string }>;
}

describe('versioned widget', () => {
  const root = mkdtempSync(join(tmpdir(), 'slk-widget-'));
  const cdn = join(root, 'cdn');
  const dataDir = join(root, 'data');
  const first = { entry: 'export const built = "first";\n', de: 'export default { title: "Erste" };\n' };
  let server: ServerType;
  let base: string;
  const get = (path: string) => fetch(`${base}${path}`);
  const manifest = async () => (await (await get('/manifest.json')).json()) as Manifest;

  before(async () => {
    mkdirSync(cdn);
    writeFileSync(join(cdn, 'social-link.js'), first.entry);
    writeFileSync(join(cdn, 'de.js'), first.de);
    writeFileSync(join(cdn, 'social-link.js.map'), '{}');
    server = await new Promise<ServerType>((resolve) => {
      const s = serve({ fetch: widgetBundleRoutes({ dataDir, cdnDir: cdn }).fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s));
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(root, { recursive: true, force: true });
  });

  it('serves a build id and its locale chunks immutable, the channels briefly cached', async () => {
    const { latest, channels, versions } = await manifest();
    assert.match(latest, new RegExp(`^${WIDGET_VERSION.replaceAll('.', '\\.')}-[0-9a-f]{10}$`));
    assert.deepEqual(channels, { [WIDGET_CHANNEL]: latest });
    assert.deepEqual(versions, { [latest]: { url: `/widget/${latest}/social-link.js`, integrity: sri(first.entry) } });
    for (const [name, text] of [['social-link.js', first.entry], ['de.js', first.de]] as const) {
      const pinned = await get(`/${latest}/${name}`);
      assert.equal(pinned.status, 200, name);
      assert.equal(pinned.headers.get('cache-control'), 'public, max-age=31536000, immutable');
      assert.equal(pinned.headers.get('access-control-allow-origin'), '*');
      assert.equal(await pinned.text(), text);
      for (const path of [`/${WIDGET_CHANNEL}/${name}`, `/${WIDGET_VERSION}/${name}`, `/${name}`]) {
        const channel = await get(path);
        assert.equal(channel.status, 200, path);
        assert.equal(channel.headers.get('cache-control'), 'public, max-age=300', path);
        assert.equal(await channel.text(), text);
      }
    }
    assert.equal((await get(`/${latest}/fr.js`)).status, 404, 'a locale the build does not have');
    assert.equal((await get(`/${latest}/social-link.js.map`)).status, 404, 'only the entry and locale chunks');
    const other = await get('/9.9.9-0123456789/social-link.js');
    assert.equal(other.status, 404);
    assert.equal(((await other.json()) as { code: number }).code, 101);
  });

  it('keeps serving the earlier build under its id after an upgrade, and lists both', async () => {
    const before = (await manifest()).latest;
    // A longer entry: the build is re-read when the entry's modification time or size changes.
    writeFileSync(join(cdn, 'social-link.js'), 'export const built = "second, longer";\n');
    writeFileSync(join(cdn, 'de.js'), 'export default { title: "Zweite" };\n');
    const after = await manifest();
    assert.notEqual(after.latest, before, 'new bytes, new id');
    assert.deepEqual(Object.keys(after.versions).sort(), [before, after.latest].sort());
    assert.equal(after.versions[before]!.integrity, sri(first.entry));
    assert.equal(await (await get(`/${before}/social-link.js`)).text(), first.entry);
    assert.equal(await (await get(`/${before}/de.js`)).text(), first.de);
    assert.equal(await (await get(`/${WIDGET_CHANNEL}/de.js`)).text(), 'export default { title: "Zweite" };\n');
    // A kept folder whose bytes were changed no longer matches its id, and is not served under it.
    writeFileSync(join(dataDir, 'widget', before, 'social-link.js'), 'tampered');
    const fresh = widgetBundleRoutes({ dataDir, cdnDir: cdn });
    assert.equal((await fresh.request(`/${before}/social-link.js`)).status, 404);
  });

  it('says so when the bundle is not built', async () => {
    const empty = widgetBundleRoutes({ dataDir: join(root, 'none'), cdnDir: join(root, 'none') });
    for (const path of ['/v1/social-link.js', '/manifest.json', '/social-link.js', `/${WIDGET_VERSION}-0123456789/social-link.js`]) {
      assert.equal((await empty.request(path)).status, 503, path);
    }
  });
});
