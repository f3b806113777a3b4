/**
 * @module
 * Identifiers as the AT Protocol writes them: blob CIDs (CIDv1, raw codec, sha2-256, base32 multibase) and record
 * keys. Shared by the sandbox PDS and checked the same way a PDS checks them.
 */
import { createHash } from 'node:crypto';

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

function base32(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

/** CIDv1 of raw bytes: version 1, codec raw (0x55), multihash sha2-256 (0x12, 32 bytes), as `b` + base32. */
export function rawCid(bytes: Uint8Array): string {
  const digest = createHash('sha256').update(bytes).digest();
  return `b${base32(Buffer.concat([Buffer.from([0x01, 0x55, 0x12, 0x20]), digest]))}`;
}

/** CIDv1 of a record (dag-cbor codec 0x71); the sandbox hashes the record's JSON, which is enough to tell versions apart. */
export function recordCid(record: unknown): string {
  const digest = createHash('sha256').update(JSON.stringify(record)).digest();
  return `b${base32(Buffer.concat([Buffer.from([0x01, 0x71, 0x12, 0x20]), digest]))}`;
}

/** Record key syntax of the AT Protocol. */
export function isRecordKey(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9._:~-]{1,512}$/.test(value) && value !== '.' && value !== '..';
}

/** NSID syntax (e.g. `app.bsky.feed.post`). */
export function isNsid(value: unknown): value is string {
  return typeof value === 'string' && /^[a-zA-Z]([a-zA-Z0-9-]{0,62})?(\.[a-zA-Z0-9]([a-zA-Z0-9-]{0,62})?)+$/.test(value) && value.length <= 317;
}
