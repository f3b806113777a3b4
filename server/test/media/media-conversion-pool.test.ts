/**
 * The conversion pool with a real 12-megapixel HEIC (4000×3000, committed fixture): the result is a full-size JPEG,
 * and while four such conversions run the service's event loop keeps turning, because decoding happens in worker
 * threads. The longest stall of the loop is measured and printed, and compared with the run's own length (a decode
 * on the main thread stalls the loop for the whole decode, about a second per image here, four in a row): a fixed
 * bound in ms would meet a loaded CI machine, which stretches every stall and the run alike.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import sharp from 'sharp';
import { createConversionPool } from '../../src/publishing/media/image-conversion-pool.js';

const heic12mp = new Uint8Array(readFileSync(new URL('../../../sandbox/src/media/fixtures/photo-12mp.heic', import.meta.url)));
const pool = createConversionPool({ size: 2, maxPixels: 50_000_000 });
after(() => pool.close());

/**
 * The longest time between turns of the event loop (a 10 ms interval's ticks, and the last tick to the stop), from
 * now until `stop()`. A loop blocked up to the stop counts too: a delay histogram records nothing for a stall that
 * no timer got to see the end of.
 */
function watchStalls(): { stop: () => number } {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 10);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(longest, performance.now() - last);
    },
  };
}

describe('image conversion pool', () => {
  it('converts a 12-megapixel HEIC to a full-size JPEG', async () => {
    const jpeg = await pool.toJpeg(heic12mp, 'image/heic');
    assert.deepEqual([jpeg.width, jpeg.height], [4000, 3000]);
    const meta = await sharp(jpeg.bytes).metadata();
    assert.equal(meta.format, 'jpeg');
  });

  it('keeps the event loop turning during four concurrent 12-megapixel conversions', async () => {
    const stalls = watchStalls();
    const started = performance.now();
    const results = await Promise.all([1, 2, 3, 4].map(() => pool.toJpeg(heic12mp, 'image/heic')));
    const elapsed = performance.now() - started;
    const longestMs = stalls.stop();
    console.log(`4 × 12 MP HEIC in ${Math.round(elapsed)} ms; longest event loop stall ${longestMs.toFixed(1)} ms`);
    assert.equal(results.length, 4);
    // Against the run's own length, not a fixed bound (a loaded machine stretches both): decoded on this thread, one
    // image stalls the loop for its whole decode, at least a quarter of the run; in the workers, the loop turns.
    assert.ok(longestMs < elapsed / 8, `the event loop stalled for ${longestMs} ms of a ${elapsed} ms run`);
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
