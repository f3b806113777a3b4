/**
 * @module
 * The media store on an S3-compatible object store (AWS S3, MinIO, Ceph, R2…), used instead of the DATA_DIR store
 * when `MEDIA_S3_*` is configured, so several instances and hosts share the converted and re-hosted copies. Objects
 * are named as in the local store (SHA-256 of the bytes + extension, under an optional prefix), written with a
 * SigV4-signed PUT (s3-signature.ts) through the guarded fetch, and handed to networks that pull media as
 * presigned, expiring GET addresses of the store itself. The service's own `/media/<name>` route does not serve
 * them (`open` is null): the presigned address is the one way in.
 */
import { createHash } from 'node:crypto';
import type { GuardedFetch } from '../core/guarded-fetch.js';
import { MEDIA_EXTENSIONS, MEDIA_NAME, type MediaStore } from '../publishing/media/media-store.js';
import { encodeRfc3986, presignS3Url, sha256Hex, signS3Request, type S3Credentials } from './s3-signature.js';

export interface S3MediaStoreSettings extends S3Credentials {
  /** `https://s3.eu-west-1.amazonaws.com`, `http://minio.internal:9000`: path-style requests go to `{endpoint}/{bucket}/{key}`. */
  endpoint: string;
  bucket: string;
  /** Key prefix, e.g. `media/` (default: none). */
  prefix: string;
}

export interface S3MediaStoreOptions {
  settings: S3MediaStoreSettings;
  fetch: GuardedFetch;
  /** The injected clock: signatures and expiries are computed from it. */
  now: () => number;
  /** Default lifetime of a presigned address (48 h, like the local store); S3 caps it at 7 days. */
  ttlMs?: number;
}

const MAX_PRESIGN_SECONDS = 7 * 24 * 3600;

/** Why the store refused a request; `code` (e.g. `S3_403`) is what the 452 answer shows, never the URL or key. */
export class S3StoreError extends Error {
  readonly code: string;
  constructor(status: number, message: string) {
    super(message);
    this.name = 'S3StoreError';
    this.code = `S3_${status}`;
  }
}

export function openS3MediaStore(options: S3MediaStoreOptions): MediaStore {
  const { settings, fetch, now } = options;
  const ttlMs = options.ttlMs ?? 48 * 3_600_000;
  const base = settings.endpoint.replace(/\/+$/, '');
  const objectUrl = (name: string) => new URL(`${base}/${encodeRfc3986(settings.bucket)}/${encodeRfc3986(settings.prefix + name, true)}`);

  async function send(method: 'PUT' | 'GET', name: string, body?: Uint8Array, contentType?: string): Promise<Response> {
    const url = objectUrl(name);
    const headers = signS3Request(
      { method, url, headers: contentType ? { 'content-type': contentType } : {}, payloadHash: sha256Hex(body ?? new Uint8Array()) },
      settings,
      now(),
    );
    return fetch(url, { method, headers, ...(body && { body: new Uint8Array(body) }) });
  }

  async function read(name: string) {
    const match = MEDIA_NAME.exec(name);
    if (!match) return null;
    // Like the local store: anything but the object (missing, store down) is "no copy".
    const answer = await send('GET', name).catch(() => null);
    if (!answer?.ok) return null;
    const contentType = Object.entries(MEDIA_EXTENSIONS).find(([, extension]) => extension === match[2])![0];
    return { bytes: Buffer.from(await answer.arrayBuffer()), contentType };
  }

  return {
    async put(bytes, contentType) {
      const extension = MEDIA_EXTENSIONS[contentType];
      if (!extension) throw new Error(`no stored form for ${contentType}`);
      const name = `${createHash('sha256').update(bytes).digest('hex')}.${extension}`;
      const answer = await send('PUT', name, bytes, contentType);
      await answer.arrayBuffer();
      if (!answer.ok) throw new S3StoreError(answer.status, `the media store refused the upload (${answer.status})`);
      return { name, contentType };
    },
    signedUrl(name, at, ttl = ttlMs) {
      return presignS3Url(objectUrl(name), settings, at, Math.min(MAX_PRESIGN_SECONDS, Math.max(1, Math.round(ttl / 1000))));
    },
    read,
    async open() {
      return null;
    },
  };
}

/**
 * `MEDIA_S3_ENDPOINT`, `MEDIA_S3_BUCKET`, `MEDIA_S3_REGION` (default us-east-1), `MEDIA_S3_ACCESS_KEY_ID`,
 * `MEDIA_S3_SECRET_ACCESS_KEY`, `MEDIA_S3_PREFIX`: null when no endpoint is set (the DATA_DIR store is used); a
 * half-configured store stops the service at start rather than silently keeping media on local disk.
 */
export function readS3MediaStoreSettings(env: NodeJS.ProcessEnv): S3MediaStoreSettings | null {
  const endpoint = env.MEDIA_S3_ENDPOINT?.trim();
  if (!endpoint) return null;
  if (!URL.canParse(endpoint) || !/^https?:$/.test(new URL(endpoint).protocol)) throw new Error('MEDIA_S3_ENDPOINT must be an http(s) URL.');
  const missing = ['MEDIA_S3_BUCKET', 'MEDIA_S3_ACCESS_KEY_ID', 'MEDIA_S3_SECRET_ACCESS_KEY'].filter((name) => !env[name]);
  if (missing.length > 0) throw new Error(`MEDIA_S3_ENDPOINT is set but ${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} not.`);
  return {
    endpoint,
    bucket: env.MEDIA_S3_BUCKET!,
    region: env.MEDIA_S3_REGION || 'us-east-1',
    accessKeyId: env.MEDIA_S3_ACCESS_KEY_ID!,
    secretAccessKey: env.MEDIA_S3_SECRET_ACCESS_KEY!,
    prefix: env.MEDIA_S3_PREFIX ?? '',
  };
}
