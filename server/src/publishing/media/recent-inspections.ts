/**
 * @module
 * Inspections of the last minute, by URL, so an immediate post downloads each media file once: the create-time check
 * (post-media.ts) and the engine's prepare step, which runs right after it, share one download. A post published
 * later (scheduled, or retried after the minute) is fetched again, as spec 4.9 rule 7 wants. Only successful
 * inspections are kept, bounded by total bytes (oldest dropped first); time is the service clock.
 */
import type { MediaInspection } from './inspect-media.js';

export interface RecentInspections {
  get(key: string, now: number): MediaInspection | undefined;
  set(key: string, now: number, inspection: MediaInspection): void;
}

export function createRecentInspections(options: { ttlMs: number; maxBytes: number }): RecentInspections {
  // A Map keeps insertion order: the first entries are the oldest.
  const entries = new Map<string, { at: number; inspection: MediaInspection; bytes: number }>();
  let total = 0;
  const drop = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    total -= entry.bytes;
    entries.delete(key);
  };
  return {
    get(key, now) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (now - entry.at > options.ttlMs || now < entry.at) {
        drop(key);
        return undefined;
      }
      return entry.inspection;
    },
    set(key, now, inspection) {
      const bytes = inspection.kind === 'image' ? inspection.bytes.byteLength : 0;
      if (bytes > options.maxBytes) return;
      drop(key);
      entries.set(key, { at: now, inspection, bytes });
      total += bytes;
      // Oldest first: drop what has expired, then what no longer fits.
      for (const [oldest, entry] of entries) {
        if (total <= options.maxBytes && now - entry.at <= options.ttlMs) break;
        drop(oldest);
      }
    },
  };
}
