/**
 * @module
 * Where converted media lives until networks have pulled it: files under `DATA_DIR/media`, named by the SHA-256
 * of their bytes (storing the same image twice is one file), and handed out as signed, expiring addresses under
 * the service's public URL: `{publicUrl}/media/<name>?expires=<epoch ms>&signature=<HMAC-SHA256>`. The signature
 * covers the name and the expiry, so an address cannot be stretched or pointed at another file. The signing key is
 * `MEDIA_SIGNING_KEY` or a random key kept in `DATA_DIR/media/.signing-key` (instances sharing DATA_DIR share it).
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface StoredMedia {
  name: string;
  contentType: string;
}

export interface MediaStore {
  /** Writes the bytes (idempotent) and returns the stored name. Throws when the store cannot be written (452). */
  put(bytes: Uint8Array, contentType: string): Promise<StoredMedia>;
  /** A signed address that works until `now + ttlMs`. */
  signedUrl(name: string, now: number, ttlMs?: number): string;
  /** A stored file by name, for the service itself (no signature); null when there is none. */
  read(name: string): Promise<{ bytes: Buffer; contentType: string } | null>;
  /** The file for a request, or null when the name, signature or expiry does not check out. */
  open(name: string, expires: string | undefined, signature: string | undefined, now: number): Promise<{ bytes: Buffer; contentType: string } | null>;
}

export interface MediaStoreOptions {
  directory: string;
  publicUrl: () => string;
  /** From MEDIA_SIGNING_KEY; without it a key file in the directory is used (created once). */
  signingKey?: string;
  /** Default lifetime of a signed address (default 48 h: long enough for a network to pull a scheduled post's media). */
  ttlMs?: number;
}

/** Stored content types and their file extensions (shared with the S3 store). */
export const MEDIA_EXTENSIONS: Record<string, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/gif': 'gif', 'image/webp': 'webp', 'video/mp4': 'mp4' };
export const MEDIA_NAME = /^([0-9a-f]{64})\.(jpg|png|gif|webp|mp4)$/;

export async function openMediaStore(options: MediaStoreOptions): Promise<MediaStore> {
  const { directory } = options;
  await mkdir(directory, { recursive: true });
  const key = options.signingKey ? Buffer.from(options.signingKey, 'utf8') : await keyFile(join(directory, '.signing-key'));
  const ttlMs = options.ttlMs ?? 48 * 3_600_000;
  const sign = (name: string, expires: number) => createHmac('sha256', key).update(`${name}\n${expires}`).digest('base64url');

  async function read(name: string) {
    const match = MEDIA_NAME.exec(name);
    if (!match) return null;
    try {
      const bytes = await readFile(join(directory, name));
      const contentType = Object.entries(MEDIA_EXTENSIONS).find(([, extension]) => extension === match[2])![0];
      return { bytes, contentType };
    } catch {
      return null;
    }
  }

  return {
    async put(bytes, contentType) {
      const extension = MEDIA_EXTENSIONS[contentType];
      if (!extension) throw new Error(`no stored form for ${contentType}`);
      const name = `${createHash('sha256').update(bytes).digest('hex')}.${extension}`;
      // Written under a temporary name and renamed, so a reader never sees half a file.
      const temporary = join(directory, `.${name}.${randomBytes(6).toString('hex')}`);
      await writeFile(temporary, bytes);
      await rename(temporary, join(directory, name));
      return { name, contentType };
    },
    signedUrl(name, now, ttl = ttlMs) {
      const expires = now + ttl;
      return `${options.publicUrl()}/media/${name}?expires=${expires}&signature=${sign(name, expires)}`;
    },
    read,
    async open(name, expires, signature, now) {
      const expiresAt = Number(expires);
      if (!signature || !Number.isSafeInteger(expiresAt) || expiresAt < now) return null;
      const expected = Buffer.from(sign(name, expiresAt));
      const given = Buffer.from(signature);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      return read(name);
    },
  };
}

async function keyFile(path: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch {
    const key = randomBytes(32);
    // `wx`: when two instances start at once, the first key written wins and the other reads it.
    await writeFile(path, key, { flag: 'wx', mode: 0o600 }).catch(() => {});
    return readFile(path);
  }
}
