/**
 * @module
 * Wires the publishing half: store, jobs, adapters, engine, service, and the worker that runs due jobs. Built by
 * server.ts next to the app; its routes are mounted by app.ts when present.
 */
import type { ServiceMetrics } from '../core/observability/metrics.js';
import type { Clock } from '../core/clock.js';
import { JobStore } from '../core/jobs/job-store.js';
import { startJobWorker, type JobHandler, type JobWorker, type JobWorkerSettings } from '../core/jobs/job-worker.js';
import type { ServiceConfig } from '../config.js';
import type { TokenCipher } from '../core/crypto/token-cipher.js';
import type { NetworkRegistry, ResolvedOAuthNetwork } from '../networks/registry.js';
import type { Network } from '@social-link-kit/protocol';
import type { HealthRecorder } from '../account-health/health-recorder.js';
import type { NetworkRuntime } from '../network-runtime.js';
import { PUBLISH_ADAPTERS, publishBaseUrl } from '../networks/index.js';
import type { TokenRefresher } from '../networks/token-refresher.js';
import type { Storage } from '../storage/storage.js';
import { PublishingEngine, type CrashPoint } from './engine.js';
import { PostService } from './post-service.js';
import { DUPLICATE_WINDOW_MS } from './duplicate-index.js';
import type { PostStore } from './post-store.js';
import type { MediaDeps } from './media/inspect-media.js';
import { networkContextFor } from '../analytics/network-context.js';
import { listYoutubeCategories } from '../networks/youtube/channel-api.js';
import { threadsGeoEligible } from '../networks/threads/geo-gating.js';
import type { PublishFailure } from '../networks/publish-adapter.js';
import { watchdogJobHandlers } from './publish-watchdog.js';
import { AttemptLog } from './attempt-log.js';

export interface Publishing {
  store: PostStore;
  jobs: JobStore;
  /** Every attempt per network of each post (`GET /api/post/:id/attempts`). */
  attemptLog: AttemptLog;
  engine: PublishingEngine;
  service: PostService;
  settings: JobWorkerSettings;
  /** The one rotation-safe refresher of provider tokens; every renewal it makes is recorded as account health. */
  tokenRefresher: TokenRefresher;
  healthRecorder: HealthRecorder;
  /** The OAuth client accounts are renewed and checked with. */
  oauthNetwork(platform: Network): ResolvedOAuthNetwork | null;
  /** The guarded fetch every network call goes through. */
  fetch: (url: string | URL, init?: RequestInit) => Promise<Response>;
  /** Whether the profile's threads account may restrict posts to countries; null when no threads account is linked. */
  geoEligible(profileId: string): Promise<boolean | PublishFailure | null>;
  /** Starts the loop that runs due jobs (scheduled posts, confirms, first comments, resumed attempts). */
  startWorker(extraHandlers?: Record<string, JobHandler>): JobWorker;
}

const CRASH_POINTS: readonly CrashPoint[] = ['after-prepare', 'after-commit-started', 'after-commit', 'between-thread-parts', 'inside-first-comment'];
const BAND_PRUNE_EVERY_MS = 10 * 60_000;
/** A call's deadline beyond the outbound time limit: its answer's last bytes and the handler's own work. */
const CALL_DEADLINE_MARGIN_MS = 2_000;

export function createPublishing(options: {
  storage: Storage;
  clock: Clock;
  tokenCipher: TokenCipher;
  networks: NetworkRegistry;
  /** The network runtime compose.ts built once: refresher, health recorder, OAuth clients, account context. */
  runtime: NetworkRuntime;
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
  const store = options.storage.posts;
  const jobs = new JobStore(db);
  const attemptLog = new AttemptLog(db, store, clock);
  const fetch = options.networks.fetch;
  const crashAt = CRASH_POINTS.find((point) => point === config.publishing.testCrashAt) ?? null;
  const { tokenRefresher, healthRecorder, oauthNetwork, contextDeps } = options.runtime;
  const engine = new PublishingEngine({
    // The network runtime's one account context; posts go to each network's publishing API base.
    ...contextDeps,
    store,
    jobs,
    adapters: PUBLISH_ADAPTERS,
    publishBaseUrl: (platform, sandbox) => publishBaseUrl(platform, publicUrl(), sandbox, config.networks.apiBaseUrls),
    crashAt,
    leaseMs: settings.leaseMs,
    callDeadlineMs: config.outbound.timeoutMs + CALL_DEADLINE_MARGIN_MS,
    retryBaseMs: settings.retryBaseMs,
    retryMaxMs: settings.retryMaxMs,
    maxAttempts: settings.maxAttempts,
    firstCommentDelayMs: config.publishing.firstCommentDelayMs,
    media: options.media,
    metrics: options.metrics,
    attemptLog,
  });
  // Account facts read from the network when a post is checked: youtube's category list (spec 4.3), threads'
  // geo-gating eligibility (allowCountries), in the one account context of the network runtime.
  const geoEligible = async (profileId: string) => {
    const ctx = await networkContextFor(contextDeps, profileId, 'threads');
    return ctx ? threadsGeoEligible(ctx) : null;
  };
  const service = new PostService({
    geoEligible,
    youtubeCategories: async (profileId, region) => {
      const ctx = await networkContextFor(contextDeps, profileId, 'youtube');
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
    log,
  });
  return {
    store,
    jobs,
    attemptLog,
    engine,
    service,
    settings,
    tokenRefresher,
    healthRecorder,
    oauthNetwork,
    fetch,
    geoEligible,
    // Other features' job kinds (analytics snapshots) run on the same worker and jobs table.
    startWorker(extraHandlers = {}) {
      const worker = startJobWorker({ store: jobs, clock, settings, handlers: { ...engine.handlers(), ...watchdogJobHandlers({ db, store, jobs, engine, clock, log }), ...extraHandlers }, log, metrics: options.metrics });
      // Near-duplicate bands matter only while a new post can meet their row (±24 h): older ones are dropped, so the
      // table holds about two days of posts, not all of them. Every instance may prune; the delete is idempotent.
      const prune = setInterval(() => void store.duplicates.prune(clock() - 2 * DUPLICATE_WINDOW_MS).catch((error) => log(`pruning duplicate bands failed: ${String(error)}`)), BAND_PRUNE_EVERY_MS);
      prune.unref();
      return {
        runOnce: () => worker.runOnce(),
        async stop() {
          clearInterval(prune);
          await worker.stop();
        },
      };
    },
  };
}
