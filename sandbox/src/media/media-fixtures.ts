/**
 * @module
 * The files the sandbox media host serves, made on first use: images drawn by sharp (JPEG, PNG, GIF, WebP, AVIF;
 * square, wide and tall), two HEICs committed in fixtures/ (64×48, and 4000×3000 for the 12-megapixel case) (sharp's prebuilt cannot encode HEVC), header-only
 * MP4s of any duration (`video-<seconds>s.mp4`, also without extension and with `moov` last), broken files, and the
 * default stock-image catalogue (`stock/<id>.jpg`, publishing/media/stock-images.ts).
 */
import { STOCK_CATALOGUE } from '@social-link-kit/server/sandbox-kit.js';
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { headerOnlyMp4 } from './header-only-mp4.js';

export interface Fixture {
  bytes: Uint8Array;
  contentType: string;
}

const cache = new Map<string, Promise<Fixture | null>>();

export async function mediaFixture(name: string): Promise<Fixture | null> {
  const cached = cache.get(name);
  if (cached) return cached;
  const made = make(name);
  // Only files that exist are kept, and videos are cheap to make: any path a client invents is not remembered.
  if ((await made) !== null && !name.startsWith('video-')) cache.set(name, made);
  return made;
}

async function make(name: string): Promise<Fixture | null> {
  const video = /^video-(\d+(?:\.\d+)?)s(-moov-last)?(\.mp4)?$/.exec(name);
  if (video) return { bytes: headerOnlyMp4(Number(video[1]), { moovLast: video[2] !== undefined }), contentType: video[3] ? 'video/mp4' : 'application/octet-stream' };
  const stock = /^stock\/(stock-[a-z]+)\.jpg$/.exec(name);
  if (stock) return STOCK_CATALOGUE.some((image) => image.id === stock[1]) ? image(1080, 1080, 'jpeg', stock[1]) : null;
  switch (name) {
    case 'photo.jpg':
      return image(800, 800, 'jpeg');
    case 'photo-without-extension':
      return { ...(await image(800, 800, 'jpeg')), contentType: 'application/octet-stream' };
    case 'wide.jpg':
      return image(1500, 500, 'jpeg');
    case 'tall.jpg':
      return image(400, 1000, 'jpeg');
    case 'photo.png':
      return image(800, 800, 'png');
    case 'photo.gif':
      return image(80, 80, 'gif');
    case 'photo.webp':
      return image(800, 800, 'webp');
    case 'photo.avif':
      return image(800, 800, 'avif');
    case 'photo.heic':
    case 'photo-12mp.heic':
      return { bytes: new Uint8Array(await readFile(new URL(`./fixtures/${name}`, import.meta.url))), contentType: 'image/heic' };
    case 'broken.heic': {
      // A real HEIC header with the image data cut off: sniffed as HEIC, impossible to decode (450).
      const heic = new Uint8Array(await readFile(new URL('./fixtures/photo.heic', import.meta.url)));
      return { bytes: heic.slice(0, 120), contentType: 'image/heic' };
    }
    case 'broken.mp4':
      return { bytes: new TextEncoder().encode('\u0000\u0000\u0000\u0018ftypisom\u0000\u0000\u0000\u0000isomXXXXjunk that is no box'), contentType: 'video/mp4' };
    case 'page.html':
      return { bytes: new TextEncoder().encode('<!doctype html><title>Not an image</title>'), contentType: 'text/html' };
    default:
      return null;
  }
}

async function image(width: number, height: number, format: 'jpeg' | 'png' | 'gif' | 'webp' | 'avif', seed = ''): Promise<Fixture> {
  // Each stock image gets its own colour, from its id.
  const hue = [...seed].reduce((sum, char) => (sum * 31 + char.charCodeAt(0)) % 256, 0);
  const background = seed ? { r: hue, g: 255 - hue, b: (hue * 3) % 256 } : { r: 40, g: 120, b: 200 };
  const drawn = sharp({ create: { width, height, channels: 3, background } }).toFormat(format);
  return { bytes: new Uint8Array(await drawn.toBuffer()), contentType: `image/${format}` };
}
