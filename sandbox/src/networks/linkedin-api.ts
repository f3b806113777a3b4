/**
 * @module
 * The sandbox LinkedIn REST API at `/sandbox/linkedin`, in LinkedIn's wire format, for the linkedin adapter. Every
 * `/rest` call needs `Authorization: Bearer <sandbox access token>`, `X-Restli-Protocol-Version: 2.0.0` and an active
 * `LinkedIn-Version: YYYYMM` (released within the last 12 months of the service clock; otherwise 426
 * NONEXISTENT_VERSION, as LinkedIn sunsets versions):
 * - `POST /rest/posts` → 201, empty body, the URN in `x-restli-id`; the same commentary by the same author again →
 *   422 duplicate. The commentary is read as "little text": an unescaped reserved character cuts the text there,
 *   as LinkedIn's rendering does, so the feed shows what a member would see.
 * - `GET /rest/posts?q=author&author=&start&count` (FINDER) → `{elements: [{id, author, commentary, …}], paging: {start,
 *   count, total}}`, newest first;
 *   `DELETE /rest/posts/{urn}` → 204.
 * - `POST /rest/images?action=initializeUpload` → `{value: {uploadUrl, image}}`; `POST /rest/videos?action=
 *   initializeUpload {fileSizeBytes}` → `{value: {video, uploadInstructions: [{uploadUrl, firstByte, lastByte}],
 *   uploadToken}}` in 4 MiB parts; `PUT` to an upload URL → 201 with an ETag; `POST /rest/videos?action=
 *   finalizeUpload {uploadedPartIds}` checks every part's ETag.
 * - `POST /rest/socialActions/{urn}/comments` → 201; `GET /feed/update/{urn}` → the feed's page of the post.
 *   Analytics, comment listings and replies to comments are linkedin-engagement-api.ts.
 * Errors: `{status, serviceErrorCode?, code?, message}`. Fault markers in the text: 119 (504), 401, 429, 500.
 */
import type { SandboxEnv, SandboxHost } from '@social-link-kit/server/sandbox-host.js';
import { readLittleText } from '@social-link-kit/server/sandbox-kit.js';
import { Hono, type Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { createHash, randomInt } from 'node:crypto';
import { faultMarker } from './faults.js';
import { containsNul } from './input-guards.js';
import { bearerOf, checkSandboxToken, sandboxStoreOf } from './sandbox-tokens.js';
import type { SandboxMedia } from './store.js';
import { answerOwnErrors } from './own-errors.js';

export const LINKEDIN_PART_BYTES = 4 * 1024 * 1024;
const MAX_MEDIA_BYTES = 32 * 1024 * 1024;
const TEXT_MAX = 3_000;

export class LinkedInError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(typeof body.message === 'string' ? body.message : 'LinkedIn error');
  }
}

export const error = (status: number, message: string, extra: Record<string, unknown> = {}) => new LinkedInError(status, { status, message, ...extra });
const FAULTS: Record<string, () => LinkedInError> = {
  '119': () => error(504, 'Request timed out'),
  '401': () => error(401, 'The token used in the request has been revoked by the user', { serviceErrorCode: 65601, code: 'REVOKED_ACCESS_TOKEN' }),
  '429': () => error(429, 'Resource level throttle APPLICATION DAY limit for calls to this resource is reached.', { serviceErrorCode: 101, code: 'TOO_MANY_REQUESTS' }),
  '500': () => error(500, 'Internal Server Error'),
};

const newNumericId = () => `7${randomInt(10 ** 8, 10 ** 9 - 1)}${String(randomInt(0, 10 ** 9 - 1)).padStart(9, '0')}`;
const etagOf = (bytes: Uint8Array) => `"${createHash('sha256').update(bytes).digest('hex').slice(0, 32)}"`;

/** YYYYMM within the 12 months up to the clock's month. */
function versionActive(version: string, now: number): boolean {
  const match = /^(\d{4})(\d{2})(?:\.\d{2})?$/.exec(version);
  if (!match) return false;
  const date = new Date(now);
  const months = (date.getUTCFullYear() - Number(match[1])) * 12 + (date.getUTCMonth() + 1 - Number(match[2]));
  return Number(match[2]) >= 1 && Number(match[2]) <= 12 && months >= 0 && months < 12;
}

/** The account of the Bearer token, after the versioned headers are checked. */
export async function authorizeLinkedInRequest(deps: SandboxHost, c: Context<SandboxEnv>, versioned = true): Promise<string> {
  const store = () => sandboxStoreOf(deps.storage);
  const check = await checkSandboxToken(store(), bearerOf(c.req.header('authorization')), 'linkedin', 'access', deps.clock());
  if (!check.ok || !check.accountId) throw error(401, 'Invalid access token', { serviceErrorCode: 65600, code: 'INVALID_ACCESS_TOKEN' });
  if (versioned) {
    const version = c.req.header('linkedin-version') ?? '';
    if (!versionActive(version, deps.clock())) throw error(426, `Requested version ${version.slice(0, 10)} is not active`, { code: 'NONEXISTENT_VERSION' });
    if (c.req.header('x-restli-protocol-version') !== '2.0.0') throw error(400, 'X-Restli-Protocol-Version must be 2.0.0', { code: 'ILLEGAL_ARGUMENT' });
  }
  return check.accountId;
}

export function sandboxLinkedInRoutes(deps: SandboxHost): Hono<SandboxEnv> {
  const routes = new Hono<SandboxEnv>();
  const store = () => sandboxStoreOf(deps.storage);
  const base = () => `${deps.config.publicUrl}/sandbox/linkedin`;

  answerOwnErrors(routes, LinkedInError, (err, c) => c.json(err.body, err.status as ContentfulStatusCode));

  const authorize = (c: Context<SandboxEnv>, versioned = true) => authorizeLinkedInRequest(deps, c, versioned);

  async function jsonBody(c: Context<SandboxEnv>): Promise<Record<string, unknown>> {
    const body = (await c.req.json().catch(() => null)) as unknown;
    if (!body || typeof body !== 'object' || Array.isArray(body) || containsNul(body)) throw error(400, 'Unable to parse the request body', { code: 'ILLEGAL_ARGUMENT' });
    return body as Record<string, unknown>;
  }

  const personOf = (accountId: string) => `urn:li:person:${accountId}`;

  routes.post('/rest/posts', async (c) => {
    const accountId = await authorize(c);
    const body = await jsonBody(c);
    if (body.author !== personOf(accountId)) throw error(403, `Not enough permissions to post as ${String(body.author).slice(0, 80)}`, { serviceErrorCode: 100, code: 'ACCESS_DENIED' });
    const commentary = body.commentary ?? '';
    if (typeof commentary !== 'string') throw error(400, '/commentary must be a string', { code: 'ILLEGAL_ARGUMENT' });
    if (body.lifecycleState !== 'PUBLISHED' || !['PUBLIC', 'CONNECTIONS', 'LOGGED_IN'].includes(body.visibility as string)) {
      throw error(400, '/lifecycleState and /visibility are required', { code: 'ILLEGAL_ARGUMENT' });
    }
    const readable = readLittleText(commentary);
    if ([...readable.text].length > TEXT_MAX) throw error(422, `/commentary is longer than ${TEXT_MAX} characters`);
    const marker = faultMarker(readable.text);
    if (marker) throw (FAULTS[marker] ?? (() => error(400, `sandbox: linkedin cannot produce fault ${marker} (see docs/sandbox-faults.md)`)))();
    const content = body.content as { media?: { id?: unknown }; multiImage?: { images?: { id?: unknown }[] } } | undefined;
    const urns = content?.media ? [content.media.id] : content?.multiImage ? (content.multiImage.images ?? []).map((image) => image.id) : [];
    if (content?.multiImage && (urns.length < 2 || urns.length > 20)) throw error(422, 'A multi-image post has 2 to 20 images');
    const media: SandboxMedia[] = [];
    for (const urn of urns) {
      const found = typeof urn === 'string' ? await store().findBlob(accountId, urn) : null;
      if (!found) throw error(422, `${String(urn).slice(0, 80)} is not an uploaded asset of this member`);
      media.push({ url: `/sandbox/linkedin/media/${encodeURIComponent(urn as string)}`, mimeType: found.mimeType, kind: (urn as string).startsWith('urn:li:video:') ? 'video' : 'image' });
    }
    const sameText = commentary === '' ? [] : await store().recentWithText('linkedin', accountId, readable.text, 100);
    const duplicate = sameText.find((post) => post.record?.commentary === commentary);
    if (duplicate) throw error(422, `Content is a duplicate of ${duplicate.networkId}`, { code: 'DUPLICATE_POST' });
    const now = deps.clock();
    const urn = `urn:li:share:${newNumericId()}`;
    const row = await store().insertPost({
      platform: 'linkedin',
      accountId,
      networkId: urn,
      clientKey: null,
      text: readable.text,
      media,
      record: { author: body.author, commentary, visibility: body.visibility, lifecycleState: 'PUBLISHED', ...(content && { content }), createdAt: now },
      status: 'published',
      error: null,
      createdAt: now,
      readyAt: now,
    });
    if (!row) throw error(500, 'Internal Server Error');
    return c.body(null, 201, { 'x-restli-id': urn, 'x-linkedin-id': urn });
  });

  routes.get('/rest/posts', async (c) => {
    const accountId = await authorize(c);
    if (c.req.query('q') !== 'author' || c.req.query('author') !== personOf(accountId)) throw error(403, 'Not enough permissions to read these posts', { code: 'ACCESS_DENIED' });
    const count = Math.min(Math.max(Number(c.req.query('count') ?? 10) || 10, 1), 100);
    // LinkedIn pages by offset: `start` and `count`, with the total in `paging`.
    const start = Math.max(Number(c.req.query('start') ?? 0) || 0, 0);
    const { posts, total } = await store().offsetPageForAccount('linkedin', accountId, start, count);
    return c.json({
      elements: posts.map((post) => ({ id: post.networkId, ...post.record, publishedAt: post.createdAt, lastModifiedAt: post.createdAt })),
      paging: { start, count, total },
    });
  });

  routes.delete('/rest/posts/:urn', async (c) => {
    const accountId = await authorize(c);
    const post = await store().findByNetworkId('linkedin', accountId, c.req.param('urn'));
    if (!post) throw error(404, 'Not Found', { code: 'NOT_FOUND' });
    await store().markDeleted(post.id, deps.clock());
    return c.body(null, 204);
  });

  routes.post('/rest/images', async (c) => {
    const accountId = await authorize(c);
    if (c.req.query('action') !== 'initializeUpload') throw error(400, 'Unknown action', { code: 'ILLEGAL_ARGUMENT' });
    const body = await jsonBody(c);
    const owner = (body.initializeUploadRequest as { owner?: unknown } | undefined)?.owner;
    if (owner !== personOf(accountId)) throw error(403, 'Not enough permissions to upload for this owner', { code: 'ACCESS_DENIED' });
    const id = `D4E${newNumericId()}`;
    return c.json({ value: { uploadUrlExpiresAt: deps.clock() + 86_400_000, uploadUrl: `${base()}/upload/image/${id}`, image: `urn:li:image:${id}` } });
  });

  routes.post('/rest/videos', async (c) => {
    const accountId = await authorize(c);
    const action = c.req.query('action');
    const body = await jsonBody(c);
    if (action === 'initializeUpload') {
      const request = body.initializeUploadRequest as { owner?: unknown; fileSizeBytes?: unknown } | undefined;
      if (request?.owner !== personOf(accountId)) throw error(403, 'Not enough permissions to upload for this owner', { code: 'ACCESS_DENIED' });
      const size = request.fileSizeBytes;
      if (typeof size !== 'number' || !Number.isInteger(size) || size < 1 || size > MAX_MEDIA_BYTES) throw error(400, '/fileSizeBytes is out of range', { code: 'ILLEGAL_ARGUMENT' });
      const id = `D5E${newNumericId()}`;
      const parts = Math.ceil(size / LINKEDIN_PART_BYTES);
      const uploadInstructions = Array.from({ length: parts }, (_, index) => ({
        uploadUrl: `${base()}/upload/video/${id}/${index}`,
        firstByte: index * LINKEDIN_PART_BYTES,
        lastByte: Math.min(size, (index + 1) * LINKEDIN_PART_BYTES) - 1,
      }));
      await store().putBlob(accountId, `video-init:${id}`, 'application/json', Buffer.from(JSON.stringify({ size, parts })), deps.clock());
      return c.json({ value: { video: `urn:li:video:${id}`, uploadInstructions, uploadToken: '', uploadUrlsExpireAt: deps.clock() + 86_400_000 } });
    }
    if (action === 'finalizeUpload') {
      const request = body.finalizeUploadRequest as { video?: unknown; uploadedPartIds?: unknown } | undefined;
      const id = typeof request?.video === 'string' ? request.video.replace(/^urn:li:video:/, '') : '';
      const init = id ? await store().findBlob(accountId, `video-init:${id}`) : null;
      if (!init) throw error(404, 'Unknown video', { code: 'NOT_FOUND' });
      const { size, parts } = JSON.parse(init.bytes.toString()) as { size: number; parts: number };
      const chunks: Buffer[] = [];
      for (let index = 0; index < parts; index++) {
        const part = await store().findBlob(accountId, `video-part:${id}:${index}`);
        if (!part) throw error(400, `Part ${index} was not uploaded`, { code: 'ILLEGAL_ARGUMENT' });
        chunks.push(part.bytes);
      }
      const etags = chunks.map((chunk) => etagOf(chunk));
      if (!Array.isArray(request?.uploadedPartIds) || JSON.stringify(request.uploadedPartIds) !== JSON.stringify(etags)) {
        throw error(400, '/uploadedPartIds do not match the uploaded parts', { code: 'ILLEGAL_ARGUMENT' });
      }
      const file = Buffer.concat(chunks);
      if (file.byteLength !== size) throw error(400, `The parts hold ${file.byteLength} of ${size} bytes`, { code: 'ILLEGAL_ARGUMENT' });
      await store().putBlob(accountId, `urn:li:video:${id}`, 'video/mp4', file, deps.clock());
      return c.json({});
    }
    throw error(400, 'Unknown action', { code: 'ILLEGAL_ARGUMENT' });
  });

  routes.put('/upload/:kind/:id/:part?', async (c) => {
    const accountId = await authorize(c, false);
    const { kind, id } = c.req.param();
    const bytes = new Uint8Array(await c.req.arrayBuffer());
    if (bytes.byteLength === 0 || bytes.byteLength > MAX_MEDIA_BYTES) throw error(400, 'Empty or oversized upload', { code: 'ILLEGAL_ARGUMENT' });
    if (kind === 'image' && /^D4E\d+$/.test(id)) {
      const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim();
      await store().putBlob(accountId, `urn:li:image:${id}`, type.startsWith('image/') ? type : 'image/jpeg', bytes, deps.clock());
      return c.body(null, 201, { ETag: etagOf(bytes) });
    }
    const part = Number(c.req.param('part'));
    if (kind === 'video' && /^D5E\d+$/.test(id) && Number.isInteger(part) && part >= 0 && part < 1000) {
      if (!(await store().findBlob(accountId, `video-init:${id}`))) throw error(404, 'Unknown upload', { code: 'NOT_FOUND' });
      await store().putBlob(accountId, `video-part:${id}:${part}`, 'application/octet-stream', bytes, deps.clock());
      return c.body(null, 201, { ETag: etagOf(bytes) });
    }
    throw error(404, 'Unknown upload', { code: 'NOT_FOUND' });
  });

  routes.post('/rest/socialActions/:urn/comments', async (c) => {
    const accountId = await authorize(c);
    // The member's own posts only: the sandbox writes a comment as the post's author, so another member's post is
    // not found here rather than spoken for.
    const post = await store().findByPlatformId('linkedin', c.req.param('urn'));
    if (!post || post.accountId !== accountId) throw error(404, 'Not Found', { code: 'NOT_FOUND' });
    const body = await jsonBody(c);
    const text = (body.message as { text?: unknown } | undefined)?.text;
    if (body.actor !== personOf(accountId) || typeof text !== 'string' || text.trim() === '') throw error(400, '/actor and /message/text are required', { code: 'ILLEGAL_ARGUMENT' });
    const readable = readLittleText(text).text;
    const marker = faultMarker(readable);
    if (marker) throw (FAULTS[marker] ?? (() => error(400, `sandbox: linkedin cannot produce fault ${marker}`)))();
    const comment = await store().addComment(post.id, readable, [], deps.clock());
    return c.body(null, 201, { 'x-restli-id': `urn:li:comment:(${post.networkId},${comment.id})` });
  });

  // Public, as media on LinkedIn's CDN: the uploaded asset by its URN.
  routes.get('/media/:urn', async (c) => {
    const row = await deps.storage.driver.get('SELECT mime_type, bytes_base64 FROM sandbox_blobs WHERE cid = ?', [c.req.param('urn')]);
    if (!row) return c.text('Not found', 404);
    return c.body(Buffer.from(row.bytes_base64 as string, 'base64'), 200, { 'Content-Type': row.mime_type as string, 'Cache-Control': 'no-store' });
  });

  routes.get('/feed/update/:urn', (c) => c.redirect(`${deps.config.publicUrl}/sandbox/net/linkedin/p/${encodeURIComponent(c.req.param('urn').slice(0, 80))}`, 302));

  return routes;
}
