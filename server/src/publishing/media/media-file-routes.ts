/**
 * @module
 * `GET /media/<name>?expires=…&signature=…`: converted media served to the networks that pull it (instagram,
 * threads, facebook, pinterest, tiktok). No API key: the signed, expiring address is the permission. Anything that
 * does not check out is one 404, so the answer reveals nothing about which files exist.
 */
import { Hono } from 'hono';
import type { Clock } from '../../core/clock.js';
import type { MediaStore } from './media-store.js';
import { describe, FILE } from '../../core/openapi/describe.js';
import { z } from 'zod';

export function mediaFileRoutes(deps: { media: { store: MediaStore }; clock: Clock }): Hono {
  const app = new Hono();
  const serve = async (name: string, expires: string | undefined, signature: string | undefined, head: boolean) => {
    const file = await deps.media.store.open(name, expires, signature, deps.clock());
    if (!file) return new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain' } });
    const headers = { 'content-type': file.contentType, 'content-length': String(file.bytes.byteLength), 'cache-control': 'private, max-age=300' };
    return new Response(head ? null : new Uint8Array(file.bytes), { status: 200, headers });
  };
  app.on(['GET', 'HEAD'], '/:name', describe({ summary: 'Converted media at a signed, expiring address (for pull-based networks)', tag: 'Media', auth: 'none', query: z.object({ expires: z.string(), signature: z.string() }), response: FILE }), (c) => serve(c.req.param('name'), c.req.query('expires'), c.req.query('signature'), c.req.method === 'HEAD'));
  return app;
}
