/**
 * @module
 * A small pool of worker threads for image work (image-conversion-worker.ts). Jobs queue in arrival order and each
 * worker runs one at a time, so at most `size` images are decoded at once: memory is bounded by the pool size
 * (about 250 MB per 12-megapixel HEIC), not by the number of posts. A worker that dies is replaced; its job fails.
 */
import { Worker } from 'node:worker_threads';
import type { ConversionJob, ConversionReply } from './image-conversion-worker.js';
import { RUNNING_FROM_SOURCE } from '../../paths.js';

/** The pool itself could not run the job (closed, or its worker died): the media probe is unavailable (499). */
export class ConversionUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConversionUnavailableError';
  }
}

export interface ImageInfo {
  width: number;
  height: number;
}

export interface ImageConverter {
  /** Pixel size after EXIF orientation. Throws when the bytes cannot be decoded. */
  inspect(bytes: Uint8Array, type: string): Promise<ImageInfo>;
  /** A JPEG of the image (orientation applied, transparency on white). Throws when conversion fails. */
  toJpeg(bytes: Uint8Array, type: string): Promise<ImageInfo & { bytes: Uint8Array }>;
  close(): Promise<void>;
}

export interface ConversionPoolOptions {
  /** Workers, i.e. images decoded at once (default 2). */
  size: number;
  /** Larger images are refused before decoding (default 50 megapixels). */
  maxPixels: number;
}

interface Waiting {
  job: Omit<ConversionJob, 'id'>;
  resolve(reply: ConversionReply | Unavailable): void;
}

interface Unavailable {
  unavailable: string;
}

interface Slot {
  worker: Worker;
  busy: ((reply: ConversionReply | Unavailable) => void) | null;
}

/**
 * The worker's module. From the build, the bundled worker beside this chunk (server/build.mjs names it); from
 * source, a plain module that loads the TypeScript worker through tsx, as the service itself is loaded.
 */
const WORKER_URL = RUNNING_FROM_SOURCE ? new URL('./image-conversion-worker-entry.mjs', import.meta.url) : new URL('./image-conversion-worker.js', import.meta.url);

export function createConversionPool(options: ConversionPoolOptions): ImageConverter {
  const queue: Waiting[] = [];
  const slots: Slot[] = [];
  let nextId = 1;
  let closed = false;

  function spawn(): Slot {
    const slot: Slot = { worker: new Worker(WORKER_URL), busy: null };
    slot.worker.on('message', (reply: ConversionReply) => {
      const done = slot.busy;
      slot.busy = null;
      slot.worker.unref();
      done?.(reply);
      pump();
    });
    slot.worker.on('error', (error) => {
      const done = slot.busy;
      slot.busy = null;
      done?.({ unavailable: `the conversion worker failed: ${error.message}` });
    });
    slot.worker.on('exit', () => {
      const index = slots.indexOf(slot);
      if (index >= 0) slots.splice(index, 1);
      const done = slot.busy;
      slot.busy = null;
      done?.({ unavailable: 'the conversion worker stopped' });
      if (!closed) pump();
    });
    // An idle worker must not keep the process alive; a busy one does (its caller is waiting).
    slot.worker.unref();
    slots.push(slot);
    return slot;
  }

  function pump() {
    while (queue.length > 0) {
      const slot = slots.find((s) => s.busy === null) ?? (slots.length < options.size ? spawn() : null);
      if (!slot) return;
      const waiting = queue.shift()!;
      slot.busy = waiting.resolve;
      slot.worker.ref();
      const bytes = new Uint8Array(waiting.job.bytes);
      slot.worker.postMessage({ ...waiting.job, bytes, id: nextId++ }, [bytes.buffer]);
    }
  }

  function submit(job: Omit<ConversionJob, 'id' | 'maxPixels'>): Promise<ConversionReply & { ok: true }> {
    if (closed) return Promise.reject(new ConversionUnavailableError('the conversion pool is closed'));
    return new Promise((resolve, reject) => {
      queue.push({
        job: { ...job, maxPixels: options.maxPixels },
        resolve: (reply) => {
          if ('unavailable' in reply) reject(new ConversionUnavailableError(reply.unavailable));
          else if (reply.ok) resolve(reply);
          else reject(new Error(reply.message));
        },
      });
      pump();
    });
  }

  return {
    async inspect(bytes, type) {
      const reply = await submit({ op: 'inspect', bytes, type });
      return { width: reply.width, height: reply.height };
    },
    async toJpeg(bytes, type) {
      const reply = await submit({ op: 'toJpeg', bytes, type });
      if (!reply.bytes) throw new Error('the conversion worker returned no image');
      return { width: reply.width, height: reply.height, bytes: reply.bytes };
    },
    async close() {
      closed = true;
      for (const waiting of queue.splice(0)) waiting.resolve({ unavailable: 'the conversion pool is closed' });
      await Promise.all(slots.map((slot) => slot.worker.terminate()));
    },
  };
}
