/**
 * @module
 * MP4 files of any chosen duration without an encoder: an `ftyp` box and a `moov` box whose movie header (`mvhd`)
 * states the duration, and no media samples. Enough for the duration rules (182), which read only the header.
 * `moovLast` puts a padding `mdat` first, so readers must find `moov` at the end (as in files not made for streaming).
 */
export function headerOnlyMp4(seconds: number, options: { moovLast?: boolean; paddingBytes?: number } = {}): Uint8Array {
  const timescale = 1000;
  const ftyp = box('ftyp', concat(ascii('isom'), uint32(512), ascii('isom'), ascii('iso2'), ascii('mp41')));
  const mvhdBody = new Uint8Array(100);
  const view = new DataView(mvhdBody.buffer);
  view.setUint32(12, timescale);
  view.setUint32(16, Math.round(seconds * timescale));
  view.setUint32(20, 0x00010000); // rate 1.0
  view.setUint16(24, 0x0100); // volume 1.0
  view.setUint32(36, 0x00010000); // identity matrix
  view.setUint32(52, 0x00010000);
  view.setUint32(68, 0x40000000);
  view.setUint32(96, 2); // next track id
  const moov = box('moov', box('mvhd', mvhdBody));
  if (!options.moovLast) return concat(ftyp, moov);
  const mdat = box('mdat', new Uint8Array(options.paddingBytes ?? 200_000));
  return concat(ftyp, mdat, moov);
}

function box(type: string, body: Uint8Array): Uint8Array {
  return concat(uint32(8 + body.length), ascii(type), body);
}

function uint32(value: number): Uint8Array {
  const bytes = new Uint8Array(4);
  new DataView(bytes.buffer).setUint32(0, value);
  return bytes;
}

function ascii(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
