/**
 * @module
 * Runs inside a worker thread of the conversion pool (image-conversion-pool.ts), so decoding a 12-megapixel image
 * never blocks the service's event loop. Two jobs: `inspect` (format and size, for the aspect-ratio rule) and
 * `toJpeg`. sharp's prebuilt libvips reads JPEG, PNG, GIF, WebP and AVIF but not HEIC (its HEVC decoder is not
 * shipped), so HEIC goes through heic-decode (wasm) to raw pixels first. One conversion at a time per worker and
 * no libvips cache: memory stays bounded by the pool size.
 */
import { parentPort } from 'node:worker_threads';
import decodeHeic from 'heic-decode';
import sharp, { type Sharp } from 'sharp';

export interface ConversionJob {
  id: number;
  op: 'inspect' | 'toJpeg';
  bytes: Uint8Array;
  /** The sniffed type: HEIC needs the wasm decoder. */
  type: string;
  maxPixels: number;
}

export type ConversionReply =
  | { id: number; ok: true; width: number; height: number; bytes?: Uint8Array }
  | { id: number; ok: false; message: string };

sharp.cache(false);
sharp.concurrency(1);

async function run(job: ConversionJob): Promise<ConversionReply> {
  if (job.op === 'inspect' && isHeic(job.type)) {
    // The HEIF header (libheif applies its rotation) gives the size without decoding 12 MP of HEVC in wasm, which
    // the conversion does anyway when it is needed; a header libvips cannot read falls back to the full decode.
    const header = await sharp(job.bytes).metadata().catch(() => null);
    if (header?.autoOrient.width && header.autoOrient.height) {
      if (header.width * header.height > job.maxPixels) throw new Error(`the image has more than ${job.maxPixels} pixels`);
      return { id: job.id, ok: true, width: header.autoOrient.width, height: header.autoOrient.height };
    }
  }
  const image = isHeic(job.type) ? await heicImage(job) : sharp(job.bytes, { limitInputPixels: job.maxPixels });
  if (job.op === 'inspect') {
    const meta = await image.metadata();
    return { id: job.id, ok: true, width: meta.autoOrient.width, height: meta.autoOrient.height };
  }
  const { data, info } = await image.rotate().flatten({ background: '#ffffff' }).jpeg({ quality: 90, mozjpeg: false }).toBuffer({ resolveWithObject: true });
  return { id: job.id, ok: true, width: info.width, height: info.height, bytes: new Uint8Array(data) };
}

const isHeic = (type: string) => type === 'image/heic' || type === 'image/heif';

/** HEIC/HEIF decoded to raw RGBA by heic-decode; a HEIF it cannot read (an AV1 payload) goes to sharp instead. */
async function heicImage(job: ConversionJob): Promise<Sharp> {
  // libvips reads the HEIF header even without the HEVC decoder: refuse a too large image before decoding it.
  const header = await sharp(job.bytes).metadata().catch(() => null);
  if (header && header.width * header.height > job.maxPixels) throw new Error(`the image has more than ${job.maxPixels} pixels`);
  let decoded;
  try {
    decoded = await decodeHeic({ buffer: job.bytes });
  } catch {
    return sharp(job.bytes, { limitInputPixels: job.maxPixels });
  }
  if (decoded.width * decoded.height > job.maxPixels) throw new Error(`the image has more than ${job.maxPixels} pixels`);
  const pixels = Buffer.from(decoded.data.buffer, decoded.data.byteOffset, decoded.data.byteLength);
  return sharp(pixels, { raw: { width: decoded.width, height: decoded.height, channels: 4 } });
}

parentPort?.on('message', (job: ConversionJob) => {
  run(job).then(
    (reply) => parentPort?.postMessage(reply, reply.ok && reply.bytes ? [reply.bytes.buffer as ArrayBuffer] : []),
    (error: unknown) => parentPort?.postMessage({ id: job.id, ok: false, message: error instanceof Error ? error.message : String(error) }),
  );
});
