/**
 * @module
 * Reads parts of a remote file with HTTP range requests through the guarded fetch, so a video's header can be read
 * without downloading the video. A host that ignores `Range` answers 200 with the whole file; that still works
 * (bounded by the fetch's size limit), and the answer is kept so it is not fetched again.
 */
import type { GuardedFetch } from '../../core/guarded-fetch.js';

export interface RangeRead {
  bytes: Uint8Array;
  /** File size from Content-Range (or the whole body's length), null when the host does not say. */
  total: number | null;
}

export interface RangeReader {
  read(start: number, length: number): Promise<RangeRead>;
}

export class RangeReadError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.name = 'RangeReadError';
    this.status = status;
  }
}

export function createRangeReader(url: string, fetch: GuardedFetch, maxBytes: number): RangeReader {
  let whole: Uint8Array | null = null;
  return {
    async read(start, length) {
      if (whole) return { bytes: whole.subarray(start, start + length), total: whole.length };
      const response = await fetch(url, { headers: { range: `bytes=${start}-${start + length - 1}` }, maxBytes });
      if (response.status === 416) return { bytes: new Uint8Array(0), total: start };
      if (response.status !== 200 && response.status !== 206) throw new RangeReadError(response.status, `HTTP ${response.status}`);
      const bytes = new Uint8Array(await response.arrayBuffer());
      if (response.status === 200) {
        whole = bytes;
        return { bytes: bytes.subarray(start, start + length), total: bytes.length };
      }
      const total = Number(/\/(\d+)$/.exec(response.headers.get('content-range') ?? '')?.[1] ?? NaN);
      return { bytes, total: Number.isFinite(total) ? total : null };
    },
  };
}
