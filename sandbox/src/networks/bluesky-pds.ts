/**
 * @module
 * The sandbox Bluesky PDS, under `/sandbox/xrpc/`, in the real XRPC wire format:
 * - `com.atproto.server.createSession` `{identifier, password}`: a handle's first sign-in with the sandbox app
 *   password `sandbox-app-password` makes that sandbox user (its own DID, sandbox-users.ts); later sign-ins need the
 *   password it was made with; 401 AuthenticationRequired otherwise. Issues an access token (2 h of the service
 *   clock, JWT-shaped with `exp`) and a refresh token (60 days, single use: refreshing rotates it, as a PDS does).
 * - `com.atproto.server.refreshSession` (Bearer refresh token) → a new pair; a spent or unknown one → 400.
 * - `com.atproto.repo.uploadBlob` (raw bytes, Content-Type) → `{blob}`; over 1,000,000 bytes → 400 BlobTooLarge.
 * - `com.atproto.repo.createRecord` `{repo, collection, rkey?, validate?, record}` → `{uri, cid, commit}`;
 *   app.bsky.feed.post records are validated (300 graphemes / 3,000 bytes, facets' UTF-8 byte ranges, image
 *   embeds of ≤4 blobs this repo uploaded, a video embed of a video blob the video service stored, see
 *   bluesky-video-api.ts); a second create with the same rkey → 400 InvalidRequest.
 * - `com.atproto.repo.getRecord` → `{uri, cid, value}` or 400 RecordNotFound; `deleteRecord` → 200 (idempotent).
 * - `com.atproto.sync.getBlob?did&cid` serves a blob (the feed page shows images through it).
 * Every authenticated call: an expired access token → 400 ExpiredToken; an unknown one → 401 InvalidToken.
 * Fault markers in a post's text (`[[fault:429]]`, 500, 502, 503, 401, 400) give the matching XRPC error.
 */
import type { SandboxEnv, SandboxHost } from '@social-link-kit/server/sandbox-host.js';
import { countGraphemes, hashSecret } from '@social-link-kit/server/sandbox-kit.js';
import { Hono, type Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { PUBLISHING_CAPABILITIES } from '@social-link-kit/protocol/publishing/capabilities.js';
import { isNsid, isRecordKey, rawCid, recordCid } from './atproto-ids.js';
import { faultMarker } from './faults.js';
import { containsNul } from './input-guards.js';
import { bearerOf, checkSandboxToken, issueSandboxToken, sandboxStoreOf } from './sandbox-tokens.js';
import type { SandboxMedia, SandboxNetworkStore } from './store.js';
import { randomBytes } from 'node:crypto';
import { appPasswordHash, createSandboxUser, isSandboxHandle } from './sandbox-users.js';
import { answerOwnErrors } from './own-errors.js';

export const SANDBOX_BLUESKY_PASSWORD = 'sandbox-app-password';
export const BLUESKY_ACCESS_TTL_MS = 2 * 60 * 60_000;
const REFRESH_TTL_MS = 60 * 24 * 60 * 60_000;
export const BLUESKY_BLOB_MAX_BYTES = PUBLISHING_CAPABILITIES.bluesky.media.imageMaxBytes!;
const POST_COLLECTION = 'app.bsky.feed.post';

class XrpcError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** A new session (access + refresh token) for `did`; used by createSession and by the sandbox accounts route. */
export async function createSandboxBlueskySession(store: SandboxNetworkStore, did: string, handle: string, now: number) {
  const accessJwt = await issueSandboxToken(store, { platform: 'bluesky', accountId: did, kind: 'access', handle, ttlMs: BLUESKY_ACCESS_TTL_MS, jwtShaped: true }, now);
  const refreshJwt = await issueSandboxToken(store, { platform: 'bluesky', accountId: did, kind: 'refresh', handle, ttlMs: REFRESH_TTL_MS, jwtShaped: true }, now);
  return { did, handle, accessJwt, refreshJwt, active: true };
}

const FAULTS: Record<string, { status: number; error: string; message: string }> = {
  '400': { status: 400, error: 'InvalidRequest', message: 'Sandbox fault: invalid request.' },
  '401': { status: 401, error: 'AuthenticationRequired', message: 'Sandbox fault: token has been revoked.' },
  '429': { status: 429, error: 'RateLimitExceeded', message: 'Sandbox fault: rate limit exceeded.' },
  '500': { status: 500, error: 'InternalServerError', message: 'Sandbox fault: internal server error.' },
  '502': { status: 502, error: 'UpstreamFailure', message: 'Sandbox fault: upstream failure.' },
  '503': { status: 503, error: 'NotEnoughResources', message: 'Sandbox fault: service unavailable.' },
};

export function sandboxPdsRoutes(deps: SandboxHost): Hono<SandboxEnv> {
  const routes = new Hono<SandboxEnv>();
  const store = () => sandboxStoreOf(deps.storage);

  answerOwnErrors(routes, XrpcError, (error, c) => c.json({ error: error.error, message: error.message }, error.status as ContentfulStatusCode, error.headers));

  async function session(c: Context<SandboxEnv>): Promise<{ did: string; handle: string | null }> {
    const check = await checkSandboxToken(store(), bearerOf(c.req.header('authorization')), 'bluesky', 'access', deps.clock());
    if (check.ok) return { did: check.accountId!, handle: check.handle };
    if (check.reason === 'expired') throw new XrpcError(400, 'ExpiredToken', 'Token has expired');
    if (check.reason === 'missing') throw new XrpcError(401, 'AuthenticationRequired', 'Authentication Required');
    throw new XrpcError(401, 'InvalidToken', 'Token could not be verified');
  }

  async function jsonBody(c: Context<SandboxEnv>): Promise<Record<string, unknown>> {
    const body = (await c.req.json().catch(() => null)) as unknown;
    if (!body || typeof body !== 'object' || Array.isArray(body) || containsNul(body)) throw new XrpcError(400, 'InvalidRequest', 'Request body must be a JSON object');
    return body as Record<string, unknown>;
  }

  routes.post('/xrpc/com.atproto.server.createSession', async (c) => {
    const body = ((await c.req.json().catch(() => null)) ?? {}) as { identifier?: unknown; password?: unknown };
    const wrong = new XrpcError(401, 'AuthenticationRequired', 'Invalid identifier or password');
    if (typeof body.identifier !== 'string' || typeof body.password !== 'string' || containsNul(body.identifier)) throw wrong;
    const handle = body.identifier.replace(/^@/, '').toLowerCase();
    if (!isSandboxHandle(handle) || body.password.length > 256) throw wrong;
    const now = deps.clock();
    // A handle's first sign-in with the sandbox app password makes its user; after that, only its own password opens it.
    const user =
      (await store().findUser('bluesky', { handle })) ??
      (body.password === SANDBOX_BLUESKY_PASSWORD ? await createSandboxUser(store(), 'bluesky', { handle, appPassword: body.password }, now) : null);
    if (!user || user.passwordHash !== appPasswordHash(handle, body.password)) throw wrong;
    return c.json(await createSandboxBlueskySession(store(), user.accountId, user.handle, now));
  });

  routes.post('/xrpc/com.atproto.server.refreshSession', async (c) => {
    const token = bearerOf(c.req.header('authorization'));
    const now = deps.clock();
    const check = await checkSandboxToken(store(), token, 'bluesky', 'refresh', now);
    if (!check.ok) throw new XrpcError(400, check.reason === 'expired' ? 'ExpiredToken' : 'InvalidToken', 'Token could not be verified');
    // Rotation: the refresh token works once; a second use (a replay, or a lost answer) is refused.
    if (!(await store().useToken(hashSecret(token!), now))) throw new XrpcError(400, 'ExpiredToken', 'Token has been revoked');
    return c.json(await createSandboxBlueskySession(store(), check.accountId!, check.handle ?? check.accountId!, now));
  });

  routes.post('/xrpc/com.atproto.repo.uploadBlob', async (c) => {
    const { did } = await session(c);
    const bytes = new Uint8Array(await c.req.arrayBuffer());
    if (bytes.byteLength > BLUESKY_BLOB_MAX_BYTES) {
      throw new XrpcError(400, 'BlobTooLarge', `This file is too large. It is ${bytes.byteLength} bytes but the maximum size is ${BLUESKY_BLOB_MAX_BYTES} bytes.`);
    }
    if (bytes.byteLength === 0) throw new XrpcError(400, 'InvalidRequest', 'Empty blob');
    const mimeType = (c.req.header('content-type') ?? 'application/octet-stream').split(';')[0]!.trim().toLowerCase();
    const cid = rawCid(bytes);
    await store().putBlob(did, cid, mimeType, bytes, deps.clock());
    return c.json({ blob: { $type: 'blob', ref: { $link: cid }, mimeType, size: bytes.byteLength } });
  });

  routes.post('/xrpc/com.atproto.repo.createRecord', async (c) => {
    const { did, handle } = await session(c);
    const body = await jsonBody(c);
    // `repo` is an at-identifier: the DID or the handle.
    if (body.repo !== did && (handle === null || body.repo !== handle)) throw new XrpcError(400, 'InvalidRequest', 'Repo does not match the session');
    if (!isNsid(body.collection)) throw new XrpcError(400, 'InvalidRequest', 'Invalid collection');
    const collection = body.collection;
    const rkey = body.rkey === undefined ? newTid(deps.clock()) : body.rkey;
    if (!isRecordKey(rkey)) throw new XrpcError(400, 'InvalidRequest', 'Invalid record key');
    const record = body.record;
    if (!record || typeof record !== 'object' || Array.isArray(record)) throw new XrpcError(400, 'InvalidRequest', 'Record must be an object');
    const value = record as Record<string, unknown>;
    if (value.$type !== undefined && value.$type !== collection) throw new XrpcError(400, 'InvalidRequest', `Invalid $type: expected ${collection}`);
    const media = collection === POST_COLLECTION ? await validatePost(store(), did, value) : [];
    const text = typeof value.text === 'string' ? value.text : '';
    const marker = faultMarker(text);
    if (marker) {
      const fault = FAULTS[marker];
      if (!fault) throw new XrpcError(400, 'InvalidRequest', `Sandbox: bluesky cannot produce fault ${marker} (see docs/sandbox-faults.md).`);
      const headers: Record<string, string> =
        fault.status === 429 ? { 'ratelimit-limit': '5000', 'ratelimit-remaining': '0', 'ratelimit-reset': String(Math.floor(deps.clock() / 1000) + 60), 'retry-after': '60' } : {};
      throw new XrpcError(fault.status, fault.error, fault.message, headers);
    }
    const now = deps.clock();
    const stored = { $type: collection, ...value };
    const cid = recordCid(stored);
    const uri = `at://${did}/${collection}/${rkey}`;
    const inserted = await store().insertPost({
      platform: 'bluesky',
      accountId: did,
      networkId: `${collection}/${rkey}`,
      clientKey: null,
      text,
      media,
      record: { uri, cid, value: stored },
      status: 'published',
      error: null,
      createdAt: now,
      readyAt: now,
    });
    if (!inserted) throw new XrpcError(400, 'InvalidRequest', `Record already exists: ${uri}`);
    return c.json({ uri, cid, commit: { cid: recordCid({ uri, cid, now }), rev: newTid(now) }, validationStatus: 'valid' });
  });

  routes.get('/xrpc/com.atproto.repo.getRecord', async (c) => {
    const repo = c.req.query('repo') ?? '';
    const collection = c.req.query('collection') ?? '';
    const rkey = c.req.query('rkey') ?? '';
    // Records are public on bluesky: any caller reads them, by DID or by handle.
    const did = repo.startsWith('did:') ? repo : ((await store().findUser('bluesky', { handle: repo.toLowerCase() }))?.accountId ?? '');
    const post = await store().findByNetworkId('bluesky', did, `${collection}/${rkey}`);
    if (!post?.record) throw new XrpcError(400, 'RecordNotFound', `Could not locate record: at://${repo}/${collection}/${rkey}`);
    return c.json({ uri: post.record.uri, cid: post.record.cid, value: post.record.value });
  });

  routes.post('/xrpc/com.atproto.repo.deleteRecord', async (c) => {
    const { did } = await session(c);
    const body = await jsonBody(c);
    if (body.repo !== did) throw new XrpcError(400, 'InvalidRequest', 'Repo does not match the session');
    if (!isNsid(body.collection) || !isRecordKey(body.rkey)) throw new XrpcError(400, 'InvalidRequest', 'Invalid collection or record key');
    const now = deps.clock();
    const post = await store().findByNetworkId('bluesky', did, `${body.collection}/${body.rkey}`);
    if (post) await store().markDeleted(post.id, now);
    return c.json({ commit: { cid: recordCid({ deleted: body.rkey, now }), rev: newTid(now) } });
  });

  routes.get('/xrpc/com.atproto.sync.getBlob', async (c) => {
    const blob = await store().findBlob(c.req.query('did') ?? '', c.req.query('cid') ?? '');
    if (!blob) throw new XrpcError(400, 'BlobNotFound', 'Blob not found');
    return c.body(new Uint8Array(blob.bytes), 200, {
      'Content-Type': blob.mimeType,
      'Content-Security-Policy': "default-src 'none'; sandbox",
      'Cache-Control': 'private, max-age=3600',
    });
  });

  return routes;
}

/** The checks a PDS makes on an app.bsky.feed.post record; returns the media the post shows. */
async function validatePost(store: SandboxNetworkStore, did: string, record: Record<string, unknown>): Promise<SandboxMedia[]> {
  const invalid = (message: string) => new XrpcError(400, 'InvalidRequest', `Invalid app.bsky.feed.post record: ${message}`);
  if (typeof record.text !== 'string') throw invalid('Record/text must be a string');
  const bytes = Buffer.byteLength(record.text, 'utf8');
  if (countGraphemes(record.text) > 300) throw invalid('Record/text must not be longer than 300 graphemes');
  if (bytes > 3000) throw invalid('Record/text must not be longer than 3000 characters');
  if (typeof record.createdAt !== 'string' || Number.isNaN(Date.parse(record.createdAt))) throw invalid('Record/createdAt must be a valid datetime');
  if (record.facets !== undefined) {
    if (!Array.isArray(record.facets)) throw invalid('Record/facets must be an array');
    for (const facet of record.facets as { index?: { byteStart?: unknown; byteEnd?: unknown }; features?: unknown }[]) {
      const start = facet?.index?.byteStart;
      const end = facet?.index?.byteEnd;
      if (!Number.isInteger(start) || !Number.isInteger(end) || (start as number) < 0 || (end as number) <= (start as number) || (end as number) > bytes) {
        throw invalid('Record/facets/index must be a byte range inside the text');
      }
      if (!Array.isArray(facet.features) || facet.features.length === 0) throw invalid('Record/facets/features must be a non-empty array');
    }
  }
  const embed = record.embed as { $type?: unknown; images?: unknown } | undefined;
  if (embed === undefined) return [];
  if (embed.$type === 'app.bsky.embed.video') return [await videoEmbedMedia(store, did, embed as { video?: { ref?: { $link?: unknown } } }, invalid)];
  if (embed.$type !== 'app.bsky.embed.images') return [];
  if (!Array.isArray(embed.images) || embed.images.length === 0 || embed.images.length > 4) throw invalid('Record/embed/images must have 1 to 4 items');
  const media: SandboxMedia[] = [];
  for (const item of embed.images as { image?: { ref?: { $link?: unknown }; mimeType?: unknown }; alt?: unknown }[]) {
    const cid = item?.image?.ref?.$link;
    if (typeof cid !== 'string' || typeof item.alt !== 'string') throw invalid('Record/embed/images items need an image blob and alt text');
    const blob = await store.findBlob(did, cid);
    if (!blob) throw new XrpcError(400, 'InvalidRequest', `Could not find blob: ${cid}`);
    media.push({ url: `/sandbox/xrpc/com.atproto.sync.getBlob?did=${encodeURIComponent(did)}&cid=${cid}`, mimeType: blob.mimeType, kind: 'image' });
  }
  return media;
}

/** An `app.bsky.embed.video`: a video blob of this repo (the video service put it there). */
async function videoEmbedMedia(store: SandboxNetworkStore, did: string, embed: { video?: { ref?: { $link?: unknown } } }, invalid: (message: string) => XrpcError): Promise<SandboxMedia> {
  const cid = embed.video?.ref?.$link;
  if (typeof cid !== 'string') throw invalid('Record/embed/video must be a blob');
  const blob = await store.findBlob(did, cid);
  if (!blob) throw new XrpcError(400, 'InvalidRequest', `Could not find blob: ${cid}`);
  if (blob.mimeType !== 'video/mp4') throw invalid('Record/embed/video must be video/mp4');
  return { url: `/sandbox/xrpc/com.atproto.sync.getBlob?did=${encodeURIComponent(did)}&cid=${cid}`, mimeType: blob.mimeType, kind: 'video' };
}

const TID_ALPHABET = '234567abcdefghijklmnopqrstuvwxyz';

/** A TID (timestamp identifier): 53 bits of microseconds and 10 random bits, base32-sortable, 13 characters. */
export function newTid(nowMs: number, clockId = randomBytes(2).readUInt16BE() & 0x3ff): string {
  let value = (BigInt(nowMs) * 1000n) << 10n;
  value |= BigInt(clockId);
  let out = '';
  for (let i = 0; i < 13; i++) {
    out = TID_ALPHABET[Number(value & 31n)] + out;
    value >>= 5n;
  }
  return out;
}
