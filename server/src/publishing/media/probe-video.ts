/**
 * @module
 * Duration and size of a remote MP4/MOV from its header alone: walk the top-level boxes with range reads until
 * `moov` is found (at the start of a streaming-ready file, or after `mdat` at the end), read only that box, and take
 * the duration from its movie header (mp4-duration.ts). No decoder and no full download.
 */
import { findMoov, readMoovDuration } from './mp4-duration.js';
import type { RangeRead, RangeReader } from './range-reader.js';

export type VideoProbe = { ok: true; seconds: number; bytes: number | null } | { ok: false; reason: string };

const CHUNK = 64 * 1024;
/** A moov larger than this is not a header any network would take. */
const MAX_MOOV_BYTES = 32 * 1024 * 1024;
const MAX_HOPS = 32;

export async function probeVideo(reader: RangeReader, first: RangeRead): Promise<VideoProbe> {
  let chunk = first;
  let start = 0;
  for (let hop = 0; hop < MAX_HOPS; hop++) {
    const walk = findMoov(chunk.bytes, start);
    if (walk.found === 'invalid') return { ok: false, reason: walk.reason };
    if (walk.found === 'more') {
      if (chunk.total !== null && walk.nextOffset >= chunk.total) return { ok: false, reason: 'the file has no moov box (no movie header)' };
      if (chunk.bytes.length === 0) return { ok: false, reason: 'the file ended before a moov box' };
      start = walk.nextOffset;
      chunk = await reader.read(start, CHUNK);
      continue;
    }
    const size = walk.size === 0 ? (chunk.total ?? 0) - walk.offset : walk.size;
    if (size <= 0 || size > MAX_MOOV_BYTES) return { ok: false, reason: 'the moov box has an impossible size' };
    const within = walk.offset - start;
    const moov = within + size <= chunk.bytes.length ? chunk.bytes.subarray(within, within + size) : (await reader.read(walk.offset, size)).bytes;
    if (moov.length < size) return { ok: false, reason: 'the file ended inside the moov box' };
    const duration = readMoovDuration(moov);
    return duration.ok ? { ok: true, seconds: duration.seconds, bytes: chunk.total } : duration;
  }
  return { ok: false, reason: 'no moov box within the first boxes of the file' };
}
