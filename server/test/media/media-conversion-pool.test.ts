/**
 * The conversion pool with a real 12-megapixel HEIC (4000×3000, committed fixture): the result is a full-size JPEG,
 * and while four such conversions run the service's event loop keeps turning, because decoding happens in worker
 * threads. The loop delay is measured and printed; the assertion bound is generous (a decode on the main thread
 * stalls the loop for the whole decode, about a second per image here, four in a row).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { after, describe, it } from 'node:test';
import sharp from 'sharp';
import { createConversionPool } from '../../src/publishing/media/image-conversion-pool.js';

const heic12mp = new Uint8Array(readFileSync(new URL('../../../sandbox/src/media/fixtures/photo-12mp.heic', import.meta.url)));
const pool = createConversionPool({ size: 2, maxPixels: 50_000_000 });
after(() => pool.close());

describe('image conversion pool', () => {
  it('converts a 12-megapixel HEIC to a full-size JPEG', async () => {
    const jpeg = await pool.toJpeg(heic12mp, 'image/heic');
    assert.deepEqual([jpeg.width, jpeg.height], [4000, 3000]);
    const meta = await sharp(jpeg.bytes).metadata();
    assert.equal(meta.format, 'jpeg');
  });

  it('keeps the event loop turning during four concurrent 12-megapixel conversions', async () => {
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const started = performance.now();
    const results = await Promise.all([1, 2, 3, 4].map(() => pool.toJpeg(heic12mp, 'image/heic')));
    const elapsed = performance.now() - started;
    delay.disable();
    const maxMs = delay.max / 1e6;
    console.log(`4 × 12 MP HEIC in ${Math.round(elapsed)} ms; event loop delay max ${maxMs.toFixed(1)} ms, p99 ${(delay.percentile(99) / 1e6).toFixed(1)} ms`);
    assert.equal(results.length, 4);
    assert.ok(maxMs < 750, `the event loop stalled for ${maxMs} ms`);
  });

  it('refuses an image with more pixels than allowed, before decoding it', async () => {
    const small = createConversionPool({ size: 1, maxPixels: 1_000_000 });
    try {
      await assert.rejects(small.toJpeg(heic12mp, 'image/heic'), /more than 1000000 pixels/);
    } finally {
      await small.close();
    }
  });
});
