/**
 * @module
 * Wires the publishing half: store, jobs, adapters, engine, service, and the worker that runs due jobs. Built by
 * server.ts next to the app; its routes are mounted by app.ts when present.
 */
import type { ServiceMetrics } from '../core/observability/metrics.js';
import type { Clock } from '../core/clock.js';
import { createGuardedFetch } from '../core/guarded-fetch.js';
import { JobStore } from '../core/jobs/job-store.js';
import { startJobWorker, type JobHandler, type JobWorker, type JobWorkerSettings } from '../core/jobs/job-worker.js';
import type { ServiceConfig } from '../config.js';
import type { TokenCipher } from '../core/crypto/token-cipher.js';
import type { NetworkRegistry } from '../networks/registry.js';
import { PUBLISH_ADAPTERS, publishBaseUrl } from '../networks/publish-adapters.js';
import { TokenRefresher } from '../networks/token-refresher.js';
import type { Storage } from '../storage/storage.js';
import { PublishingEngine, type CrashPoint } from './engine.js';
import { PostService } from './post-service.js';
import { PostStore } from './post-store.js';
import type { MediaDeps } from './media/inspect-media.js';
import { networkContextFor, type NetworkContextDeps } from '../analytics/network-context.js';
import { listYoutubeCategories } from '../networks/youtube/channel-api.js';
import { threadsGeoEligible } from '../networks/threads/geo-gating.js';
import type { PublishFailure } from '../networks/publish-adapter.js';

export interface Publishing {
  store: PostStore;
  jobs: JobStore;
  engine: PublishingEngine;
  service: PostService;
  settings: JobWorkerSettings;
  /** Whether the profile's threads account may restrict posts to countries; null when no threads account is linked. */
  geoEligible(profileId: string): Promise<boolean | PublishFailure | null>;
  /** Starts the loop that runs due jobs (scheduled posts, confirms, first comments, resumed attempts). */
  startWorker(extraHandlers?: Record<string, JobHandler>): JobWorker;
}

const CRASH_POINTS: readonly CrashPoint[] = ['after-prepare', 'after-commit-started', 'after-commit'];

export function createPublishing(options: {
  storage: Storage;
  clock: Clock;
  tokenCipher: TokenCipher;
  networks: NetworkRegistry;
  publicUrl: () => string;
  config: ServiceConfig;
  log: (line: string) => void;
  /** The media pipeline (media-pipeline.ts); absent in apps built without it. */
  media?: MediaDeps;
  /** Publish and job outcome counters (core/observability/metrics.ts); absent = not counted. */
  metrics?: ServiceMetrics;
}): Publishing {
  const db = options.storage.driver;
  const { config, clock, log, publicUrl } = options;
  const settings = config.publishing.jobs;
  const store = new PostStore(db);
  const jobs = new JobStore(db);
  // The sandbox networks live on this service's own origin: that one loopback origin is allowed, nothing else private.
  const fetch = createGuardedFetch({ ...config.outbound, allowedOrigins: () => [new URL(publicUrl()).origin] });
  const crashAt = CRASH_POINTS.find((point) => point === config.publishing.testCrashAt) ?? null;
  const sandboxOn = config.networks.sandboxMode !== 'off' && options.networks.sandboxIssuer !== null;
  const engine = new PublishingEngine({
    store,
    jobs,
    storage: options.storage,
    adapters: PUBLISH_ADAPTERS,
    tokenCipher: options.tokenCipher,
    clock,
    fetch,
    // No real publishing adapter is configured yet: every network publishes through its sandbox when it runs.
    isSandbox: () => sandboxOn,
    baseUrl: (platform, sandbox) => publishBaseUrl(platform, publicUrl(), sandbox),
    log,
    crashAt,
    retryBaseMs: settings.retryBaseMs,
    retryMaxMs: settings.retryMaxMs,
    maxAttempts: settings.maxAttempts,
    firstCommentDelayMs: config.publishing.firstCommentDelayMs,
    media: options.media,
    metrics: options.metrics,
    tokenRefresher: new TokenRefresher({ db, tokenCipher: options.tokenCipher, clock, fetch, adapters: PUBLISH_ADAPTERS, network: (platform) => options.networks.oauth(platform, 'instagram'), log }),
  });
  // Account facts read from the network when a post is checked: youtube's category list (spec 4.3), threads'
  // geo-gating eligibility (allowCountries).
  const channelDeps: NetworkContextDeps = {
    storage: options.storage,
    tokenCipher: options.tokenCipher,
    clock,
    fetch,
    baseUrl: (platform, sandbox) => publishBaseUrl(platform, publicUrl(), sandbox),
    isSandbox: () => sandboxOn,
    log,
  };
  const geoEligible = async (profileId: string) => {
    const ctx = await networkContextFor(channelDeps, profileId, 'threads');
    return ctx ? threadsGeoEligible(ctx) : null;
  };
  const service = new PostService({
    geoEligible,
    youtubeCategories: async (profileId, region) => {
      const ctx = await networkContextFor(channelDeps, profileId, 'youtube');
      return ctx ? listYoutubeCategories(ctx, region) : null;
    },
    store,
    jobs,
    engine,
    storage: options.storage,
    adapters: PUBLISH_ADAPTERS,
    clock,
    publicUrl,
    inlineBudgetMs: config.publishing.inlineBudgetMs,
    firstCommentDelayMs: config.publishing.firstCommentDelayMs,
    leaseMs: settings.leaseMs,
    media: options.media,
  });
  return {
    store,
    jobs,
    engine,
    service,
    settings,
    geoEligible,
    // Other features' job kinds (analytics snapshots) run on the same worker and jobs table.
    startWorker: (extraHandlers = {}) => startJobWorker({ store: jobs, clock, settings, handlers: { ...engine.handlers(), ...extraHandlers }, log, metrics: options.metrics }),
  };
}
