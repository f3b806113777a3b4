/**
 * @module
 * The sandbox Snap Public Profile API at `/sandbox/snapchat`, in Snap's wire format, for the snapchat adapter. Every
 * call needs `Authorization: Bearer <sandbox access token>`; each sandbox account has one public profile whose id is
 * derived from the account id:
 * - `GET /v1/me/public_profile` → `{public_profile: {id, display_name, username}}`;
 * - `POST /v1/public_profiles/{id}/media {type: IMAGE|VIDEO, name, key, iv}` (AES-256 key and IV, base64) →
 *   `{media_id, add_path, finalize_path}`; the container lives 24 h of the service clock;
 * - `POST /v1/media/{media_id}/multipart-upload-v2` (multipart form) `action=ADD, part_number, file`, then
 *   `action=FINALIZE`: the parts are joined, decrypted with the container's key and IV (a wrong key fails here, as
 *   on Snap) and checked to be a JPEG, PNG or MP4 of at most 32 MB;
 * - `POST /v1/public_profiles/{id}/stories {media_id}`, `…/saved_stories {saved_stories: [{snap_sources:
 *   [{media_id}], title}]}`, `…/spotlights {media_id, description, locale}` (video only) → `{stories: [{story: {id,
 *   media_id, …}}]}` and the like; a media container is used once;
 * - `GET` of the same three collections lists them (what reconcile reads); `GET /media/{id}` the decrypted file;
 *   `GET /p/{id}` → the feed's page of the post.
 * Errors: `{request_status: "ERROR", request_id, debug_message, display_message, error_code}`. Fault markers in the
 * post's text (the media `name`, a saved story's title or a spotlight's description): 401, 403, 429, 500.
 */
import type { SandboxEnv, SandboxHost } from '@social-link-kit/server/sandbox-host.js';
import { decryptSnapMedia } from '@social-link-kit/server/sandbox-kit.js';
import { Hono, type Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { createHash, randomUUID } from 'node:crypto';
import { faultMarker } from './faults.js';
import { containsNul } from './input-guards.js';
import { sandboxAccountOfBearer } from './sandbox-bearer-account.js';
import { sandboxStoreOf } from './sandbox-tokens.js';
import { answerOwnErrors } from './own-errors.js';

const MAX_FILE_BYTES = 32 * 1024 * 1024;
const CONTAINER_LIFETIME_MS = 24 * 3_600_000;
const COLLECTIONS = { stories: 'story', saved_stories: 'saved_story', spotlights: 'spotlight' } as const;
type Collection = keyof typeof COLLECTIONS;

class SnapError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errorCode: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

const FAULTS: Record<string, () => SnapError> = {
  '401': () => new SnapError(401, 'The access token is invalid or has expired.', 'E1001'),
  '403': () => new SnapError(403, 'The organization is not allowlisted for the Public Profile API.', 'E1003'),
  '429': () => new SnapError(429, 'Too many requests; slow down.', 'E1008', 30),
  '500': () => new SnapError(500, 'Internal server error.', 'E9999'),
};

interface Container {
  profileId: string;
  type: 'IMAGE' | 'VIDEO';
  name: string;
  key: string;
  iv: string;
  createdAt: number;
}

/** A stable UUID-shaped id for the account's public profile. */
function profileIdOf(accountId: string): string {
  const hex = createHash('sha256').update(`snap-profile:${accountId}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

const isBase64Of = (value: unknown, bytes: number) => typeof value === 'string' && /^[A-Za-z0-9+/]+=*$/.test(value) && Buffer.from(value, 'base64').byteLength === bytes;

function mimeOf(bytes: Buffer): string | null {
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return 'image/jpeg';
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes.subarray(4, 8).toString('latin1') === 'ftyp') return 'video/mp4';
  return null;
}

export function sandboxSnapchatRoutes(deps: SandboxHost): Hono<SandboxEnv> {
  const routes = new Hono<SandboxEnv>();
  const store = () => sandboxStoreOf(deps.storage);

  answerOwnErrors(routes, SnapError, (err, c) => {
    const headers: Record<string, string> = err.retryAfterSeconds ? { 'Retry-After': String(err.retryAfterSeconds) } : {};
    return c.json(
      { request_status: 'ERROR', request_id: randomUUID(), debug_message: err.message, display_message: err.message, error_code: err.errorCode },
      err.status as ContentfulStatusCode,
      headers,
    );
  });

  async function accountOf(c: Context<SandboxEnv>): Promise<string> {
    const accountId = await sandboxAccountOfBearer(deps, 'snapchat', c.req.header('authorization'));
    if (!accountId) throw FAULTS['401']!();
    return accountId;
  }

  async function ownProfile(c: Context<SandboxEnv>): Promise<string> {
    const accountId = await accountOf(c);
    if (c.req.param('profile') !== profileIdOf(accountId)) throw new SnapError(403, 'The user does not manage this public profile.', 'E1004');
    return accountId;
  }

  async function jsonBody(c: Context<SandboxEnv>): Promise<Record<string, unknown>> {
    const body = (await c.req.json().catch(() => null)) as unknown;
    if (!body || typeof body !== 'object' || Array.isArray(body) || containsNul(body)) throw new SnapError(400, 'The request body is not valid JSON.', 'E2001');
    return body as Record<string, unknown>;
  }

  function throwFault(text: string): void {
    const marker = faultMarker(text);
    if (marker) throw (FAULTS[marker] ?? (() => new SnapError(400, `sandbox: snapchat cannot produce fault ${marker} (see docs/sandbox-faults.md)`, 'E2002')))();
  }

  async function containerOf(accountId: string, mediaId: string): Promise<Container | null> {
    const blob = await store().findBlob(accountId, `snap-media:${mediaId}`);
    return blob ? (JSON.parse(blob.bytes.toString('utf8')) as Container) : null;
  }
  // Sandbox blobs are written once, so a container's later states are blobs of their own: its parts
  // (`snap-part:{id}:{n}`), the decrypted file once finalized (`snap-file:{id}`) and a mark once posted (`snap-used:{id}`).
  const saveContainer = (accountId: string, mediaId: string, container: Container) =>
    store().putBlob(accountId, `snap-media:${mediaId}`, 'application/json', Buffer.from(JSON.stringify(container)), deps.clock());
  const has = async (accountId: string, cid: string) => (await store().findBlob(accountId, cid)) !== null;

  routes.get('/v1/me/public_profile', async (c) => {
    const accountId = await accountOf(c);
    return c.json({ request_status: 'SUCCESS', request_id: randomUUID(), public_profile: { id: profileIdOf(accountId), display_name: 'Sandbox Snapchat profile', username: `sandbox_${profileIdOf(accountId).slice(0, 8)}` } });
  });

  routes.post('/v1/public_profiles/:profile/media', async (c) => {
    const accountId = await ownProfile(c);
    const body = await jsonBody(c);
    if (body.type !== 'IMAGE' && body.type !== 'VIDEO') throw new SnapError(400, 'type must be IMAGE or VIDEO.', 'E2003');
    if (!isBase64Of(body.key, 32) || !isBase64Of(body.iv, 16)) throw new SnapError(400, 'key must be a base64 AES-256 key and iv a base64 16-byte IV.', 'E2004');
    const name = typeof body.name === 'string' ? body.name.slice(0, 200) : '';
    const mediaId = randomUUID();
    await saveContainer(accountId, mediaId, { profileId: c.req.param('profile'), type: body.type, name, key: body.key as string, iv: body.iv as string, createdAt: deps.clock() });
    const path = `/v1/media/${mediaId}/multipart-upload-v2`;
    return c.json({ request_status: 'SUCCESS', request_id: randomUUID(), media_id: mediaId, add_path: `${path}?action=ADD`, finalize_path: `${path}?action=FINALIZE` });
  });

  routes.post('/v1/media/:media/multipart-upload-v2', async (c) => {
    const accountId = await accountOf(c);
    const mediaId = c.req.param('media');
    const container = await containerOf(accountId, mediaId);
    if (!container) throw new SnapError(404, 'Media not found.', 'E3001');
    if (await has(accountId, `snap-file:${mediaId}`)) throw new SnapError(400, 'Media upload is already finalized.', 'E3002');
    const form = await c.req.parseBody().catch(() => null);
    const action = form?.action ?? c.req.query('action');
    if (action === 'ADD') {
      const part = Number(form?.part_number);
      const file = form?.file;
      if (!Number.isInteger(part) || part < 1 || part > 1_000 || !(file instanceof File)) throw new SnapError(400, 'part_number and file are required.', 'E3003');
      const bytes = new Uint8Array(await file.arrayBuffer());
      if (bytes.byteLength === 0 || bytes.byteLength > MAX_FILE_BYTES + 16) throw new SnapError(400, 'Each part holds 1 byte to 32 MB.', 'E3004');
      if (await has(accountId, `snap-part:${mediaId}:${part}`)) throw new SnapError(400, `Media part ${part} was already added.`, 'E3004');
      await store().putBlob(accountId, `snap-part:${mediaId}:${part}`, 'application/octet-stream', bytes, deps.clock());
      return c.json({ request_status: 'SUCCESS', request_id: randomUUID() });
    }
    if (action !== 'FINALIZE') throw new SnapError(400, 'action must be ADD or FINALIZE.', 'E3005');
    const chunks: Buffer[] = [];
    // Parts 1, 2, … in order; the first missing number ends the file.
    for (let part = 1; ; part++) {
      const blob = await store().findBlob(accountId, `snap-part:${mediaId}:${part}`);
      if (!blob) break;
      chunks.push(blob.bytes);
    }
    if (chunks.length === 0) throw new SnapError(400, 'No media part was added.', 'E3006');
    let file: Buffer;
    try {
      file = decryptSnapMedia(Buffer.concat(chunks), container.key, container.iv);
    } catch {
      throw new SnapError(400, 'Media decryption failed: check the encryption key and iv.', 'E3007');
    }
    const mime = mimeOf(file);
    if (!mime || (container.type === 'VIDEO') !== mime.startsWith('video/')) throw new SnapError(400, `The media file is not a supported ${container.type.toLowerCase()} (JPEG, PNG or MP4).`, 'E3008');
    if (file.byteLength > MAX_FILE_BYTES) throw new SnapError(400, 'The media file is larger than 32 MB.', 'E3009');
    await store().putBlob(accountId, `snap-file:${mediaId}`, mime, file, deps.clock());
    return c.json({ request_status: 'SUCCESS', request_id: randomUUID() });
  });

  /** The media id and the text of a create request, per collection. */
  function readCreate(collection: Collection, body: Record<string, unknown>): { mediaId: unknown; text: string; extra: Record<string, unknown> } {
    if (collection === 'saved_stories') {
      const entry = Array.isArray(body.saved_stories) ? (body.saved_stories[0] as Record<string, unknown> | undefined) : undefined;
      const source = Array.isArray(entry?.snap_sources) ? (entry.snap_sources[0] as Record<string, unknown> | undefined) : undefined;
      const title = typeof entry?.title === 'string' ? entry.title : '';
      if ([...title].length > 45) throw new SnapError(400, 'A saved story title is at most 45 characters.', 'E2005');
      return { mediaId: source?.media_id, text: title, extra: { title } };
    }
    if (collection === 'spotlights') {
      const description = typeof body.description === 'string' ? body.description : '';
      if ([...description].length > 160) throw new SnapError(400, 'A spotlight description is at most 160 characters.', 'E2006');
      return { mediaId: body.media_id, text: description, extra: { description, locale: typeof body.locale === 'string' ? body.locale : 'en_US' } };
    }
    return { mediaId: body.media_id, text: '', extra: {} };
  }

  const entityOf = (collection: Collection, record: Record<string, unknown>) => ({ sub_request_status: 'SUCCESS', [COLLECTIONS[collection]]: record });
  const isCollection = (value: string): value is Collection => value in COLLECTIONS;

  routes.post('/v1/public_profiles/:profile/:collection', async (c) => {
    const collection = c.req.param('collection');
    if (!isCollection(collection)) throw new SnapError(404, 'Not found.', 'E3001');
    const accountId = await ownProfile(c);
    const { mediaId, text, extra } = readCreate(collection, await jsonBody(c));
    const container = typeof mediaId === 'string' ? await containerOf(accountId, mediaId) : null;
    if (!container || typeof mediaId !== 'string') throw new SnapError(400, 'media_id does not name a media of this profile.', 'E3001');
    throwFault(`${container.name} ${text}`);
    const now = deps.clock();
    const file = await store().findBlob(accountId, `snap-file:${mediaId}`);
    if (!file) throw new SnapError(400, 'The media upload was not finalized.', 'E3010');
    if (now - container.createdAt > CONTAINER_LIFETIME_MS) throw new SnapError(400, 'The media has expired (containers live 24 hours).', 'E3011');
    if (await has(accountId, `snap-used:${mediaId}`)) throw new SnapError(400, 'The media was already posted.', 'E3012');
    if (collection === 'spotlights' && container.type !== 'VIDEO') throw new SnapError(400, 'A spotlight needs a video media.', 'E3013');
    const id = randomUUID();
    const record = { id, media_id: mediaId, profile_id: container.profileId, created_at: new Date(now).toISOString(), ...extra };
    const row = await store().insertPost({
      platform: 'snapchat',
      accountId,
      networkId: id,
      clientKey: null,
      text: text || container.name,
      media: [{ url: `/sandbox/snapchat/media/${mediaId}`, mimeType: file.mimeType, kind: container.type === 'VIDEO' ? 'video' : 'image' }],
      record: { kind: COLLECTIONS[collection], ...record },
      status: 'published',
      error: null,
      createdAt: now,
      readyAt: now,
    });
    if (!row) throw FAULTS['500']!();
    await store().putBlob(accountId, `snap-used:${mediaId}`, 'text/plain', Buffer.from(id), now);
    return c.json({ request_status: 'SUCCESS', request_id: randomUUID(), [collection]: [entityOf(collection, record)] });
  });

  routes.get('/v1/public_profiles/:profile/:collection', async (c) => {
    const collection = c.req.param('collection');
    if (!isCollection(collection)) throw new SnapError(404, 'Not found.', 'E3001');
    const accountId = await ownProfile(c);
    const posts = (await store().listForAccounts([{ platform: 'snapchat', accountId }], 200)).filter((post) => post.deletedAt === null && post.record?.kind === COLLECTIONS[collection]);
    return c.json({
      request_status: 'SUCCESS',
      request_id: randomUUID(),
      [collection]: posts.map((post) => {
        const { kind: _kind, ...record } = post.record ?? {};
        return entityOf(collection, record);
      }),
    });
  });

  routes.get('/media/:media', async (c) => {
    const row = await deps.storage.driver.get('SELECT mime_type, bytes_base64 FROM sandbox_blobs WHERE cid = ?', [`snap-file:${c.req.param('media')}`]);
    if (!row) return c.text('Not found', 404);
    return c.body(Buffer.from(row.bytes_base64 as string, 'base64'), 200, { 'Content-Type': row.mime_type as string, 'Cache-Control': 'no-store' });
  });

  routes.get('/p/:id', (c) => c.redirect(`${deps.config.publicUrl}/sandbox/net/snapchat/p/${encodeURIComponent(c.req.param('id').slice(0, 80))}`, 302));

  return routes;
}
