/**
 * @module
 * The sandbox Pinterest API v5 at `/sandbox/pinterest`, in Pinterest's wire format, for the pinterest adapter
 * (`Authorization: Bearer <sandbox access token>`, JSON; errors `{code, message}`):
 * - `GET /v5/boards` → `{items: [{id, name, privacy}]}` (every sandbox account has one board);
 * - `POST /v5/pins {board_id, title?, description?, link?, alt_text?, media_source}` → 201 `{id, …}`; media_source
 *   `image_url`, `multiple_image_urls` (2-5) or `video_id` (an uploaded, processed video); title ≤100,
 *   description ≤500; another board → 404 "Board not found.";
 * - `GET /v5/boards/{id}/pins` → `{items}` newest first; `DELETE /v5/pins/{id}` → 204;
 * - `POST /v5/media {media_type: video}` → 201 `{media_id, upload_url, upload_parameters}`; the upload URL takes a
 *   form post with those fields and `file` (204), like the object store Pinterest hands out; `GET /v5/media/{id}` →
 *   `registered` until uploaded, then `succeeded`;
 * - `GET /pin/{id}/` → the feed's page of the pin.
 * Fault markers in the description: 401, 429, 500, 140 (aspect ratio).
 */
import type { SandboxEnv, SandboxHost } from '@social-link-kit/server/sandbox-host.js';
import { Hono, type Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { createHash, createHmac, randomInt } from 'node:crypto';
import { faultMarker } from './faults.js';
import { containsNul } from './input-guards.js';
import { bearerOf, checkSandboxToken, sandboxStoreOf } from './sandbox-tokens.js';
import type { SandboxMedia } from './store.js';
import { answerOwnErrors } from './own-errors.js';

class PinterestError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code = status,
  ) {
    super(message);
  }
}

const FAULTS: Record<string, () => PinterestError> = {
  '401': () => new PinterestError(401, 'Authentication failed.'),
  '429': () => new PinterestError(429, 'Rate limit exceeded. Please try again later.'),
  '500': () => new PinterestError(500, 'Internal server error.'),
  '140': () => new PinterestError(400, 'Image aspect ratio is not supported.'),
};

/** Each sandbox account's one board id (digits, stable). */
export function sandboxBoardIdOf(accountId: string): string {
  return `9${BigInt(`0x${createHash('sha256').update(accountId).digest('hex').slice(0, 14)}`).toString().padStart(17, '0').slice(0, 17)}`;
}

const newPinId = () => `8${randomInt(10 ** 8, 10 ** 9 - 1)}${String(randomInt(0, 10 ** 8 - 1)).padStart(8, '0')}`;
const isUrl = (value: unknown): value is string => typeof value === 'string' && /^https?:\/\/\S+$/.test(value) && value.length <= 2048;

export function sandboxPinterestRoutes(deps: SandboxHost): Hono<SandboxEnv> {
  const routes = new Hono<SandboxEnv>();
  const store = () => sandboxStoreOf(deps.storage);
  const base = () => `${deps.config.publicUrl}/sandbox/pinterest`;
  const uploadSignature = (mediaId: string) => createHmac('sha256', 'sandbox-pinterest-upload').update(mediaId).digest('hex');

  answerOwnErrors(routes, PinterestError, (error, c) => c.json({ code: error.code, message: error.message }, error.status as ContentfulStatusCode));

  async function authorize(c: Context<SandboxEnv>): Promise<string> {
    const check = await checkSandboxToken(store(), bearerOf(c.req.header('authorization')), 'pinterest', 'access', deps.clock());
    if (!check.ok || !check.accountId) throw new PinterestError(401, 'Authentication failed.');
    return check.accountId;
  }

  async function jsonBody(c: Context<SandboxEnv>): Promise<Record<string, unknown>> {
    const body = (await c.req.json().catch(() => null)) as unknown;
    if (!body || typeof body !== 'object' || Array.isArray(body) || containsNul(body)) throw new PinterestError(400, 'Invalid request body.');
    return body as Record<string, unknown>;
  }

  routes.get('/v5/boards', async (c) => {
    const accountId = await authorize(c);
    return c.json({ items: [{ id: sandboxBoardIdOf(accountId), name: 'Sandbox board', privacy: 'PUBLIC' }], bookmark: null });
  });

  routes.post('/v5/pins', async (c) => {
    const accountId = await authorize(c);
    const body = await jsonBody(c);
    if (body.board_id !== sandboxBoardIdOf(accountId)) throw new PinterestError(404, 'Board not found.');
    const description = body.description ?? '';
    const title = body.title;
    if (typeof description !== 'string' || [...description].length > 500) throw new PinterestError(400, 'Invalid parameters: description is at most 500 characters.');
    if (title !== undefined && (typeof title !== 'string' || [...title].length > 100)) throw new PinterestError(400, 'Invalid parameters: title is at most 100 characters.');
    if (body.link !== undefined && !isUrl(body.link)) throw new PinterestError(400, 'Invalid parameters: link must be a URL.');
    const marker = faultMarker(description);
    if (marker) throw (FAULTS[marker] ?? (() => new PinterestError(400, `sandbox: pinterest cannot produce fault ${marker} (see docs/sandbox-faults.md)`)))();
    const source = body.media_source as { source_type?: unknown; url?: unknown; items?: { url?: unknown }[]; media_id?: unknown } | undefined;
    let media: SandboxMedia[];
    if (source?.source_type === 'image_url' && isUrl(source.url)) media = [{ url: source.url, kind: 'image' }];
    else if (source?.source_type === 'multiple_image_urls' && Array.isArray(source.items) && source.items.length >= 2 && source.items.length <= 5 && source.items.every((item) => isUrl(item?.url))) {
      media = source.items.map((item) => ({ url: item.url as string, kind: 'image' }));
    } else if (source?.source_type === 'video_id' && typeof source.media_id === 'string') {
      if (!(await store().findBlob(accountId, `pinterest-video:${source.media_id}`))) throw new PinterestError(400, 'Invalid media_source: the video is not uploaded or not processed.');
      media = [{ url: `/sandbox/pinterest/media/${source.media_id}`, kind: 'video' }];
    } else throw new PinterestError(400, 'Invalid media_source: an image URL, 2-5 image URLs or an uploaded video id is required.');
    const now = deps.clock();
    const id = newPinId();
    const pin = { id, created_at: new Date(now).toISOString(), board_id: body.board_id, title: title ?? null, description, link: body.link ?? null, alt_text: body.alt_text ?? null, media_source: source };
    const row = await store().insertPost({ platform: 'pinterest', accountId, networkId: id, clientKey: null, text: description, media, record: pin, status: 'published', error: null, createdAt: now, readyAt: now });
    if (!row) throw new PinterestError(500, 'Internal server error.');
    return c.json(pin, 201);
  });

  routes.get('/v5/boards/:id/pins', async (c) => {
    const accountId = await authorize(c);
    if (c.req.param('id') !== sandboxBoardIdOf(accountId)) throw new PinterestError(404, 'Board not found.');
    const size = Math.min(Math.max(Number(c.req.query('page_size') ?? 25) || 25, 1), 250);
    // Pinterest pages with an opaque `bookmark` (null on the last page), here the last pin's id.
    const page = await store().pageForAccount('pinterest', accountId, size, c.req.query('bookmark') || null);
    return c.json({ items: page.posts.map((post) => post.record), bookmark: page.next });
  });

  routes.delete('/v5/pins/:id', async (c) => {
    const accountId = await authorize(c);
    const post = await store().findByNetworkId('pinterest', accountId, c.req.param('id'));
    if (!post) throw new PinterestError(404, 'Pin not found.');
    await store().markDeleted(post.id, deps.clock());
    return c.body(null, 204);
  });

  routes.post('/v5/media', async (c) => {
    const accountId = await authorize(c);
    const body = await jsonBody(c);
    if (body.media_type !== 'video') throw new PinterestError(400, 'Invalid parameters: media_type must be video.');
    const mediaId = newPinId();
    await store().putBlob(accountId, `pinterest-media:${mediaId}`, 'application/json', Buffer.from('{}'), deps.clock());
    return c.json(
      { media_id: mediaId, media_type: 'video', upload_url: `${base()}/upload/${mediaId}`, upload_parameters: { key: `uploads/${mediaId}`, policy: 'sandbox', signature: uploadSignature(mediaId), 'Content-Type': 'multipart/form-data' } },
      201,
    );
  });

  routes.post('/upload/:id', async (c) => {
    const mediaId = c.req.param('id');
    // A body that is not a form (or a broken multipart) is refused like a bad signature, never a 500.
    const form = await c.req.parseBody().catch(() => null);
    if (!form) return c.text('MalformedPOSTRequest', 400);
    if (!/^\d{1,30}$/.test(mediaId) || form.signature !== uploadSignature(mediaId) || form.key !== `uploads/${mediaId}` || !(form.file instanceof Blob)) return c.text('AccessDenied', 403);
    const owner = await deps.storage.driver.get('SELECT account_id FROM sandbox_blobs WHERE cid = ?', [`pinterest-media:${mediaId}`]);
    if (!owner) return c.text('NoSuchUpload', 404);
    await store().putBlob(owner.account_id as string, `pinterest-video:${mediaId}`, form.file.type || 'video/mp4', new Uint8Array(await form.file.arrayBuffer()), deps.clock());
    return c.body(null, 204);
  });

  routes.get('/v5/media/:id', async (c) => {
    const accountId = await authorize(c);
    const id = c.req.param('id');
    if (!(await store().findBlob(accountId, `pinterest-media:${id}`))) throw new PinterestError(404, 'Media not found.');
    const uploaded = await store().findBlob(accountId, `pinterest-video:${id}`);
    return c.json({ media_id: id, media_type: 'video', status: uploaded ? 'succeeded' : 'registered' });
  });

  routes.get('/media/:id', async (c) => {
    const row = await deps.storage.driver.get('SELECT mime_type, bytes_base64 FROM sandbox_blobs WHERE cid = ?', [`pinterest-video:${c.req.param('id')}`]);
    if (!row) return c.text('Not found', 404);
    return c.body(Buffer.from(row.bytes_base64 as string, 'base64'), 200, { 'Content-Type': row.mime_type as string, 'Cache-Control': 'no-store' });
  });

  routes.get('/pin/:id/*', (c) => c.redirect(`${deps.config.publicUrl}/sandbox/net/pinterest/p/${encodeURIComponent(c.req.param('id').slice(0, 30))}`, 302));
  routes.get('/pin/:id', (c) => c.redirect(`${deps.config.publicUrl}/sandbox/net/pinterest/p/${encodeURIComponent(c.req.param('id').slice(0, 30))}`, 302));

  return routes;
}
