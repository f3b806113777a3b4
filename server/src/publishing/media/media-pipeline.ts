/**
 * @module
 * The media pipeline's long-lived parts, built once at start-up: the guarded fetch, the conversion pool and the
 * store. `MEDIA_CONVERSION_WORKERS` (default 2) bounds how many images are decoded at once, so memory too;
 * `MEDIA_SIGNING_KEY` signs stored-media addresses (default: a key file in DATA_DIR/media).
 */
import { join } from 'node:path';
import type { Clock } from '../../core/clock.js';
import type { ServiceConfig } from '../../config.js';
import { createGuardedFetch, type GuardedFetch } from '../../core/guarded-fetch.js';
import { createConversionPool } from './image-conversion-pool.js';
import type { MediaDeps } from './inspect-media.js';
import { openMediaStore } from './media-store.js';

export interface MediaPipeline extends MediaDeps {
  fetch: GuardedFetch;
  close(): Promise<void>;
}

export interface MediaPipelineOptions {
  config: ServiceConfig;
  clock: Clock;
  /** Origins allowed although private: the service's own when its sandbox serves networks and media. */
  allowedOrigins?: () => readonly string[];
}

export async function createMediaPipeline(options: MediaPipelineOptions): Promise<MediaPipeline> {
  const { config } = options;
  const fetch = createGuardedFetch({ ...config.outbound, allowedOrigins: options.allowedOrigins });
  const converter = createConversionPool({ size: config.publishing.mediaConversionWorkers, maxPixels: 50_000_000 });
  const store = await openMediaStore({ directory: join(config.dataDir, 'media'), publicUrl: () => config.publicUrl, signingKey: config.publishing.mediaSigningKey ?? undefined });
  return {
    fetch,
    converter,
    store,
    now: options.clock,
    maxVideoBytes: config.outbound.maxBytes,
    close: () => converter.close(),
  };
}
