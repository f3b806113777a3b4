/**
 * The sandbox media host on its own loopback port, and media deps (guarded fetch allowing only that origin, a real
 * conversion pool, a store in a temp directory) as the service builds them.
 */
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGuardedFetch } from '../../src/core/guarded-fetch.js';
import { createConversionPool } from '../../src/publishing/media/image-conversion-pool.js';
import type { MediaDeps } from '../../src/publishing/media/inspect-media.js';
import { openMediaStore } from '../../src/publishing/media/media-store.js';
import { sandboxMediaRoutes } from '@social-link-kit/sandbox/media/sandbox-media-routes.js';

export async function startMediaFixtureHost(options: { maxBytes?: number; timeoutMs?: number } = {}) {
  const app = new Hono();
  app.route('/sandbox/media', sandboxMediaRoutes());
  const server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s));
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const dir = mkdtempSync(join(tmpdir(), 'slk-media-'));
  let now = Date.parse('2026-11-22T12:00:00Z');
  const converter = createConversionPool({ size: 2, maxPixels: 50_000_000 });
  const store = await openMediaStore({ directory: join(dir, 'media'), publicUrl: () => 'https://service.example' });
  const guardedFetch = (timeoutMs: number) =>
    createGuardedFetch({ allowPrivateTargets: false, allowedOrigins: () => [origin], timeoutMs, maxBytes: options.maxBytes ?? 5 * 1024 * 1024, maxRedirects: 3 });
  const deps: MediaDeps = {
    fetch: guardedFetch(options.timeoutMs ?? 10_000),
    converter,
    store,
    now: () => now,
    maxVideoBytes: options.maxBytes ?? 5 * 1024 * 1024,
    maxImageBytes: 1024 * 1024,
  };
  return {
    origin,
    /** The address of a sandbox media file or mode path. */
    url: (path: string) => `${origin}/sandbox/media/${path}`,
    deps,
    /** `deps` with another fetch time limit (a short one, for a host that is meant to be too slow). */
    depsWithTimeout: (timeoutMs: number): MediaDeps => ({ ...deps, fetch: guardedFetch(timeoutMs) }),
    dir,
    advance(ms: number) {
      now += ms;
    },
    async close() {
      await converter.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
