/**
 * The widget's addresses: exact version (immutable), the v1 channel, the unversioned address, and the manifest
 * whose SRI hash matches the bytes served, on a real socket with a bundle file of the test's own.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { WIDGET_CHANNEL, WIDGET_VERSION, widgetBundleRoutes } from '../../src/linking/routes/widget-bundle.js';

describe('versioned widget', () => {
  const dir = mkdtempSync(join(tmpdir(), 'slk-widget-'));
  const file = join(dir, 'social-link.js');
  const source = 'export const built = "test bundle";\n';
  let server: ServerType;
  let base: string;
  before(async () => {
    writeFileSync(file, source);
    server = await new Promise<ServerType>((resolve) => {
      const s = serve({ fetch: widgetBundleRoutes(file).fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s));
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the exact version immutable and the channel briefly cached', async () => {
    assert.equal(WIDGET_CHANNEL, 'v1');
    const exact = await fetch(`${base}/${WIDGET_VERSION}/social-link.js`);
    assert.equal(exact.status, 200);
    assert.equal(exact.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.equal(exact.headers.get('access-control-allow-origin'), '*');
    assert.equal(await exact.text(), source);
    for (const path of ['/v1/social-link.js', '/social-link.js']) {
      const channel = await fetch(`${base}${path}`);
      assert.equal(channel.headers.get('cache-control'), 'public, max-age=300', path);
      assert.equal(await channel.text(), source);
    }
    const other = await fetch(`${base}/9.9.9/social-link.js`);
    assert.equal(other.status, 404);
    assert.equal(((await other.json()) as { code: number }).code, 101);
  });

  it('lists each version with the SRI hash of the bytes served', async () => {
    const manifest = (await (await fetch(`${base}/manifest.json`)).json()) as Record<string, any>;
    assert.equal(manifest.latest, WIDGET_VERSION);
    assert.deepEqual(manifest.channels, { v1: WIDGET_VERSION });
    const entry = manifest.versions[WIDGET_VERSION];
    assert.equal(entry.url, `/widget/${WIDGET_VERSION}/social-link.js`);
    assert.equal(entry.integrity, `sha384-${createHash('sha384').update(source).digest('base64')}`);
  });

  it('says so when the bundle is not built', async () => {
    rmSync(file);
    try {
      assert.equal((await fetch(`${base}/v1/social-link.js`)).status, 503);
      assert.equal((await fetch(`${base}/manifest.json`)).status, 503);
    } finally {
      writeFileSync(file, source);
    }
  });
});
