/**
 * @module
 * The media pipeline's long-lived parts, built once at start-up: the guarded fetch, the conversion pool and the
 * store. `MEDIA_CONVERSION_WORKERS` (default: one per core) bounds how many images are decoded at once, so memory too;
 * `MEDIA_SIGNING_KEY` signs stored-media addresses (default: a key file in DATA_DIR/media); with `MEDIA_S3_*` the
 * copies live in an S3-compatible store and networks get its presigned addresses.
 */
import { join } from 'node:path';
import type { Clock } from '../../core/clock.js';
import type { ServiceConfig } from '../../config.js';
import { createGuardedFetch, type GuardedFetch } from '../../core/guarded-fetch.js';
import { createConversionPool } from './image-conversion-pool.js';
import type { MediaDeps } from './inspect-media.js';
import { openMediaStore } from './media-store.js';
import { createRecentInspections } from './recent-inspections.js';
import { openS3MediaStore } from '../../storage/s3-media-store.js';
import { unsplashSettings } from './unsplash.js';

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
  const s3 = config.publishing.mediaS3;
  // The S3 endpoint is the operator's own choice, so it may be private (a MinIO next to the service).
  const store = s3
    ? openS3MediaStore({ settings: s3, now: options.clock, fetch: createGuardedFetch({ ...config.outbound, allowedOrigins: () => [new URL(s3.endpoint).origin] }) })
    : await openMediaStore({ directory: join(config.dataDir, 'media'), publicUrl: () => config.publicUrl, signingKey: config.publishing.mediaSigningKey ?? undefined });
  return {
    fetch,
    converter,
    store,
    now: options.clock,
    maxVideoBytes: config.outbound.maxBytes,
    stockBaseUrl: () => config.publishing.mediaStockBaseUrl ?? `${config.publicUrl}/sandbox/media/stock`,
    unsplash: () => unsplashSettings(config.publicUrl, config.publishing.unsplashAccessKey, config.publishing.unsplashApiUrl),
    recent: createRecentInspections({ ttlMs: 60_000, maxBytes: 128 * 1024 * 1024 }),
    close: () => converter.close(),
  };
}
