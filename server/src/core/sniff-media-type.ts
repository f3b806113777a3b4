/**
 * @module
 * The real type of a media file, from its first bytes (never from the extension or the server's Content-Type):
 * JPEG, PNG, GIF, WebP, the ISO-BMFF family (HEIC, HEIF, AVIF images; MP4 and QuickTime videos, told apart by the
 * `ftyp` brands), or unknown.
 */
export type MediaType = 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp' | 'image/heic' | 'image/heif' | 'image/avif' | 'video/mp4' | 'video/quicktime';

export interface SniffedType {
  type: MediaType;
  kind: 'image' | 'video';
}

/** Bytes the sniffer needs at most. */
export const SNIFF_BYTES = 64;

const HEIC_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx']);
const AVIF_BRANDS = new Set(['avif', 'avis']);
const HEIF_BRANDS = new Set(['mif1', 'msf1', 'mif2']);
const QUICKTIME_BRANDS = new Set(['qt  ']);

export function sniffMediaType(bytes: Uint8Array): SniffedType | null {
  if (starts(bytes, [0xff, 0xd8, 0xff])) return image('image/jpeg');
  if (starts(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return image('image/png');
  if (ascii(bytes, 0, 4) === 'GIF8') return image('image/gif');
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') return image('image/webp');
  if (ascii(bytes, 4, 4) === 'ftyp') return isoFamily(bytes);
  // QuickTime files may start with other top-level atoms (older files have no ftyp).
  if (['moov', 'mdat', 'wide', 'free'].includes(ascii(bytes, 4, 4))) return { type: 'video/quicktime', kind: 'video' };
  return null;
}

function isoFamily(bytes: Uint8Array): SniffedType | null {
  const boxSize = Math.min(readUint32(bytes, 0), bytes.length);
  const brands = [ascii(bytes, 8, 4)];
  for (let offset = 16; offset + 4 <= boxSize; offset += 4) brands.push(ascii(bytes, offset, 4));
  // The major brand decides first, then the compatible brands (an AVIF sequence also lists mif1, …).
  for (const brand of brands) {
    if (AVIF_BRANDS.has(brand)) return image('image/avif');
    if (HEIC_BRANDS.has(brand)) return image('image/heic');
    if (QUICKTIME_BRANDS.has(brand)) return { type: 'video/quicktime', kind: 'video' };
  }
  if (brands.some((brand) => HEIF_BRANDS.has(brand))) return image('image/heif');
  return { type: 'video/mp4', kind: 'video' };
}

function image(type: MediaType): SniffedType {
  return { type, kind: 'image' };
}

function starts(bytes: Uint8Array, prefix: number[]): boolean {
  return prefix.every((value, index) => bytes[index] === value);
}

function ascii(bytes: Uint8Array, offset: number, length: number): string {
  if (offset + length > bytes.length) return '';
  return String.fromCharCode(...bytes.subarray(offset, offset + length));
}

function readUint32(bytes: Uint8Array, offset: number): number {
  return ((bytes[offset]! << 24) >>> 0) + (bytes[offset + 1]! << 16) + (bytes[offset + 2]! << 8) + bytes[offset + 3]!;
}
