/**
 * @module
 * Publishing settings from the environment (composed by config.ts, the only reader of the environment).
 */
import { availableParallelism } from 'node:os';
import { readJobWorkerSettings, type JobWorkerSettings } from '../core/jobs/job-worker.js';
import { readS3MediaStoreSettings, type S3MediaStoreSettings } from '../storage/s3-media-store.js';

export interface PublishingSettings {
  /** `JOBS_*`: poll, lease, batch, retries and retention of the jobs table. */
  jobs: JobWorkerSettings;
  /** `PUBLISH_INLINE_BUDGET_MS`: how long an immediate post may publish inline before its answer (20 s). */
  inlineBudgetMs: number;
  /** `PUBLISH_FIRST_COMMENT_DELAY_MS`: how long after the post its first comment is sent (spec 4.9 rule 5: ~20 s). */
  firstCommentDelayMs: number;
  /** `PUBLISH_TEST_CRASH_AT`: test-only, the step at which the process kills itself (crash-safety tests). */
  testCrashAt: string | null;
  /** `MEDIA_CONVERSION_WORKERS`: image conversion threads (default: the cores, `availableParallelism()`). */
  mediaConversionWorkers: number;
  /** `MEDIA_SIGNING_KEY`: signs media URLs; a key file in DATA_DIR/media when unset. */
  mediaSigningKey: string | null;
  /** `MEDIA_S3_*`: an S3-compatible store for media copies instead of DATA_DIR/media; null when unset. */
  mediaS3: S3MediaStoreSettings | null;
  /** `MEDIA_STOCK_BASE_URL`: stock-image provider serving `<id>.jpg`; the sandbox media host's when unset. */
  mediaStockBaseUrl: string | null;
  /** `UNSPLASH_ACCESS_KEY`: the Unsplash app's access key; null = the sandbox Unsplash. */
  unsplashAccessKey: string | null;
  /** `UNSPLASH_API_URL`: the Unsplash API's base URL; null = the real one with a key, the sandbox's without. */
  unsplashApiUrl: string | null;
}

export function readPublishingSettings(env: NodeJS.ProcessEnv): PublishingSettings {
  const budget = Number(env.PUBLISH_INLINE_BUDGET_MS);
  return {
    jobs: readJobWorkerSettings(env),
    inlineBudgetMs: budget > 0 ? budget : 20_000,
    firstCommentDelayMs: env.PUBLISH_FIRST_COMMENT_DELAY_MS && Number(env.PUBLISH_FIRST_COMMENT_DELAY_MS) >= 0 ? Number(env.PUBLISH_FIRST_COMMENT_DELAY_MS) : 20_000,
    testCrashAt: env.PUBLISH_TEST_CRASH_AT || null,
    mediaConversionWorkers: Math.max(1, Number(env.MEDIA_CONVERSION_WORKERS) || availableParallelism()),
    mediaSigningKey: env.MEDIA_SIGNING_KEY || null,
    mediaS3: readS3MediaStoreSettings(env),
    mediaStockBaseUrl: env.MEDIA_STOCK_BASE_URL || null,
    unsplashAccessKey: env.UNSPLASH_ACCESS_KEY || null,
    unsplashApiUrl: env.UNSPLASH_API_URL || null,
  };
}
