/**
 * @module
 * The sandbox media host, at `/sandbox/media/…` on the service's own origin: fixture files (media-fixtures.ts) with
 * HTTP range support, and modes that reproduce the media hosts networks meet, each a path prefix:
 * - `mode/head-blocked/<file>`     HEAD answers 403, GET works (a host blocking HEAD fails the post: 164)
 * - `mode/status/<code>/<file>`    HEAD and GET answer `<code>` (403, 404, 500, …)
 * - `mode/get-fails/<code>/<file>` HEAD works, the download answers `<code>` (451 for an image)
 * - `mode/slow/<file>?ms=`         answers after `ms` (default 60000) unless the client gives up first
 * - `mode/redirect-private/<file>` redirects to a private address (10.255.255.1), refused by the guarded fetch
 * - `mode/redirect-loopback/<file>` redirects to 127.0.0.2 on the same port: another origin, refused
 * - `mode/redirect/<file>`         redirects to the file on this host (followed)
 * - `mode/oversized/<file>?bytes=` streams that many bytes (default 200 MB) whatever Range asks
 * - `mode/wrong-type/<file>`       the file with `Content-Type: text/html` (the type comes from the bytes)
 * Files: photo.jpg/.png/.gif/.webp/.avif/.heic, photo-12mp.heic, photo-without-extension, wide.jpg, tall.jpg, broken.heic, broken.mp4,
 * page.html, video-<seconds>s.mp4 (also without `.mp4`, and `video-<seconds>s-moov-last.mp4`), stock/<id>.jpg.
 */
import { Hono, type Context } from 'hono';
import { mediaFixture, type Fixture } from './media-fixtures.js';

export function sandboxMediaRoutes(): Hono {
  const app = new Hono();
  app.on(['GET', 'HEAD'], '/mode/head-blocked/:name', (c) => (c.req.method === 'HEAD' ? c.text('HEAD requests are not allowed here', 403) : serve(c, c.req.param('name'))));
  app.on(['GET', 'HEAD'], '/mode/status/:code/:name', (c) => c.text(`sandbox answer ${c.req.param('code')}`, statusOf(c.req.param('code'))));
  app.on(['GET', 'HEAD'], '/mode/get-fails/:code/:name', (c) =>
    c.req.method === 'HEAD' ? serve(c, c.req.param('name')) : c.text('download failed', statusOf(c.req.param('code'))),
  );
  app.on(['GET', 'HEAD'], '/mode/slow/:name', async (c) => {
    const ms = Number(c.req.query('ms') ?? 60_000);
    const gaveUp = await delay(ms, c.req.raw.signal);
    return gaveUp ? c.text('client gave up', 499 as 400) : serve(c, c.req.param('name'));
  });
  app.on(['GET', 'HEAD'], '/mode/redirect-private/:name', (c) => c.redirect(`http://10.255.255.1/sandbox/media/${c.req.param('name')}`, 302));
  app.on(['GET', 'HEAD'], '/mode/redirect-loopback/:name', (c) => {
    const url = new URL(c.req.url);
    url.hostname = '127.0.0.2';
    url.pathname = `/sandbox/media/${c.req.param('name')}`;
    return c.redirect(url.href, 302);
  });
  app.on(['GET', 'HEAD'], '/mode/redirect/:name', (c) => c.redirect(`../../${c.req.param('name')}`, 302));
  app.on(['GET', 'HEAD'], '/mode/oversized/:name', async (c) => {
    const fixture = await mediaFixture(c.req.param('name'));
    if (!fixture) return c.text('no such sandbox file', 404);
    const total = Number(c.req.query('bytes') ?? 200 * 1024 * 1024);
    const headers = { 'content-type': fixture.contentType, 'content-length': String(total) };
    if (c.req.method === 'HEAD') return new Response(null, { headers });
    return new Response(padded(fixture.bytes, total), { headers });
  });
  app.on(['GET', 'HEAD'], '/mode/wrong-type/:name', (c) => serve(c, c.req.param('name'), 'text/html'));
  app.on(['GET', 'HEAD'], '/stock/:name', (c) => serve(c, `stock/${c.req.param('name')}`));
  app.on(['GET', 'HEAD'], '/:name', (c) => serve(c, c.req.param('name')));
  return app;
}

async function serve(c: Context, name: string, contentType?: string): Promise<Response> {
  const fixture = await mediaFixture(name);
  if (!fixture) return c.text('no such sandbox file', 404);
  return withRange(c.req.header('range'), fixture, contentType ?? fixture.contentType, c.req.method === 'HEAD');
}

/** One `bytes=a-b` range (what the media probe asks for); anything else gets the whole file. */
function withRange(range: string | undefined, fixture: Fixture, contentType: string, head: boolean): Response {
  const total = fixture.bytes.length;
  const match = /^bytes=(\d+)-(\d*)$/.exec(range ?? '');
  if (!match) {
    return new Response(head ? null : fixture.bytes.slice(), { headers: { 'content-type': contentType, 'content-length': String(total), 'accept-ranges': 'bytes' } });
  }
  const start = Number(match[1]);
  const end = Math.min(match[2] ? Number(match[2]) : total - 1, total - 1);
  if (start >= total || end < start) return new Response(null, { status: 416, headers: { 'content-range': `bytes */${total}` } });
  const part = fixture.bytes.slice(start, end + 1);
  return new Response(head ? null : part, {
    status: 206,
    headers: { 'content-type': contentType, 'content-length': String(part.length), 'content-range': `bytes ${start}-${end}/${total}` },
  });
}

function padded(prefix: Uint8Array, total: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= total) return controller.close();
      const chunk = sent === 0 ? prefix.slice(0, total) : new Uint8Array(Math.min(64 * 1024, total - sent));
      sent += chunk.length;
      controller.enqueue(chunk);
    },
  });
}

function statusOf(code: string): 400 {
  const status = Number(code);
  return (Number.isInteger(status) && status >= 400 && status <= 599 ? status : 500) as 400;
}

/** True when the client went away before `ms` passed. */
function delay(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(true);
    const timer = setTimeout(() => resolve(false), ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve(true);
    }, { once: true });
  });
}
