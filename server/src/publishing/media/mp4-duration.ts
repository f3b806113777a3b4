/**
 * @module
 * Video duration from the container header alone (no decoder, no full download): the `mvhd` box inside `moov`
 * of an MP4 or QuickTime file gives a timescale and a duration. `findMoov` walks the top-level boxes so a caller can
 * fetch just the `moov` range with an HTTP range request, wherever it sits in the file (start or end).
 */
export type BoxWalk =
  | { found: 'moov'; offset: number; size: number }
  /** The next top-level box starts beyond the bytes given; read from there. */
  | { found: 'more'; nextOffset: number }
  | { found: 'invalid'; reason: string };

/** Looks for the top-level `moov` box in `bytes`, which start at file offset `start`. */
export function findMoov(bytes: Uint8Array, start: number): BoxWalk {
  let offset = 0;
  while (offset + 8 <= bytes.length) {
    const header = box(bytes, offset);
    if (!header) return { found: 'invalid', reason: 'a box header is malformed' };
    if (header.type === 'moov') return { found: 'moov', offset: start + offset, size: header.size };
    if (header.size === 0) return { found: 'invalid', reason: 'the file has no moov box (the last box runs to the end)' };
    offset += header.size;
  }
  return { found: 'more', nextOffset: start + offset };
}

export type DurationRead = { ok: true; seconds: number } | { ok: false; reason: string };

/** Reads the duration from the bytes of a whole `moov` box. */
export function readMoovDuration(moov: Uint8Array): DurationRead {
  const top = box(moov, 0);
  if (!top || top.type !== 'moov') return { ok: false, reason: 'not a moov box' };
  let offset = top.headerSize;
  const end = Math.min(top.size, moov.length);
  while (offset + 8 <= end) {
    const child = box(moov, offset);
    if (!child) return { ok: false, reason: 'a box inside moov is malformed' };
    if (child.type === 'mvhd') return readMvhd(moov.subarray(offset + child.headerSize, offset + child.size));
    offset += child.size;
  }
  return { ok: false, reason: 'the moov box has no mvhd (movie header)' };
}

function readMvhd(body: Uint8Array): DurationRead {
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  const version = body[0];
  if (version === 0 && body.length >= 20) return seconds(view.getUint32(12), view.getUint32(16));
  if (version === 1 && body.length >= 32) return seconds(view.getUint32(20), Number(view.getBigUint64(24)));
  return { ok: false, reason: 'the movie header is truncated or of an unknown version' };
}

function seconds(timescale: number, duration: number): DurationRead {
  if (timescale === 0) return { ok: false, reason: 'the movie header has a timescale of 0' };
  return { ok: true, seconds: duration / timescale };
}

interface BoxHeader {
  type: string;
  size: number;
  headerSize: number;
}

function box(bytes: Uint8Array, offset: number): BoxHeader | null {
  if (offset + 8 > bytes.length) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset + offset, bytes.length - offset);
  const size32 = view.getUint32(0);
  const type = String.fromCharCode(...bytes.subarray(offset + 4, offset + 8));
  if (!/^[\x20-\x7e]{4}$/.test(type)) return null;
  if (size32 === 1) {
    if (offset + 16 > bytes.length) return null;
    const size = Number(view.getBigUint64(8));
    return size < 16 ? null : { type, size, headerSize: 16 };
  }
  if (size32 === 0) return { type, size: 0, headerSize: 8 };
  return size32 < 8 ? null : { type, size: size32, headerSize: 8 };
}
