/**
 * @module
 * The composition root: config → driver and stores → network runtime → features → workers, each built once.
 * `startService` (server.ts) puts the app on a socket and then starts the workers this returns.
 */
import { sandboxTiktokJobHandlers } from '@social-link-kit/sandbox';
import { systemClock, type Clock } from './core/clock.js';
import type { ServiceConfig } from './config.js';
import { loadTokenCipher } from './core/crypto/load-token-cipher.js';
import type { TokenCipher } from './core/crypto/token-cipher.js';
import { createSmtpMailer, type Mailer } from './linking/email/link-email.js';
import { createRateLimiter } from './core/limits/create-rate-limiter.js';
import { createNetworkRegistry } from './networks/registry.js';
import { openStorage } from './storage/open-storage.js';
import { DUPLICATE_WINDOW_MS } from './publishing/duplicate-index.js';
import { createPublishing } from './publishing/publishing.js';
import { createAnalytics } from './analytics/analytics.js';
import { ensureSnapshotJobs, snapshotJobHandlers } from './analytics/snapshot-job.js';
import { networkEventHandlers } from './automations/network-events.js';
import { ensureHealthSweep, healthJobHandlers } from './account-health/health-jobs.js';
import { ensurePublishWatchdog } from './publishing/publish-watchdog.js';
import { PUBLISH_ADAPTERS } from './networks/index.js';
import { AutomationStore } from './automations/automation-store.js';
import { createMediaPipeline, type MediaPipeline } from './publishing/media/media-pipeline.js';
import type { Storage } from './storage/storage.js';
import { startDeliveryWorker } from './webhooks/delivery-worker.js';
import { createHttpsSender } from './webhooks/https-sender.js';
import { withSandboxInbox } from './webhooks/sandbox-inbox-sender.js';
import { sandboxHostOf } from './sandbox-mount.js';
import { withFreshRelinkLink } from './account-health/relink-link.js';
import { createGuardedFetch } from './core/guarded-fetch.js';
import { sealPlainWebhookSecrets } from './webhooks/webhook-secret.js';
import { structuredLog } from './core/observability/json-log.js';
import { ServiceMetrics } from './core/observability/metrics.js';
import type { AppDeps } from './app-deps.js';
import { addStandardCollectors } from './core/observability/operations-routes.js';
import { createNetworkRuntime } from './network-runtime.js';

export interface StartOptions {
  config: ServiceConfig;
  clock?: Clock;
  storage?: Storage;
  mailer?: Mailer | null;
  log?: (line: string) => void;
  tokenCipher?: TokenCipher;
  /**
   * Serve the hot link-session routes below Hono (core/http/raw-listener.ts); default true. Tests set false to get
   * the Hono path's answers for the same requests (the parity test).
   */
  rawRoutes?: boolean;
}

export interface ComposedService {
  deps: AppDeps;
  storage: Storage;
  media: MediaPipeline;
  metrics: ServiceMetrics;
  /** Starts the job and webhook workers (once the socket listens and the public URL is final). */
  startWorkers(): Promise<{ stop(): Promise<void> }>;
}

export async function composeService(options: StartOptions): Promise<ComposedService> {
  const { config } = options;
  const storage = options.storage ?? (await openStorage(config));
  const mailer = options.mailer !== undefined ? options.mailer : config.smtpUrl ? createSmtpMailer(config.smtpUrl, config.emailFrom) : null;
  // Every line, whatever module writes it, leaves as one redacted JSON object.
  const log = structuredLog(options.log ?? (() => {}));
  const networks = createNetworkRegistry(config.networks, () => config.publicUrl, config.outbound);
  const sandbox = networks.sandboxOn;
  const tokenCipher = options.tokenCipher ?? loadTokenCipher(config.tokenKeys, config.dataDir, log);
  const limiter = createRateLimiter(storage);
  const sealedSecrets = await sealPlainWebhookSecrets(storage, tokenCipher);
  if (sealedSecrets > 0) log(`Sealed ${sealedSecrets} webhook secret(s) stored in plain text by an earlier version.`);
  const clock = options.clock ?? systemClock;
  // The sandbox media host is on this service's own origin: that one loopback origin is allowed, nothing else private.
  const media = await createMediaPipeline({ config, clock, allowedOrigins: sandbox ? () => [new URL(config.publicUrl).origin] : undefined });
  const metrics = new ServiceMetrics();
  addStandardCollectors(metrics, { storage, clock });
  const runtime = createNetworkRuntime({ storage, clock, tokenCipher, networks, config, log });
  const publishing = createPublishing({ storage, clock, tokenCipher, networks, runtime, publicUrl: () => config.publicUrl, config, log, media, metrics });
  const analytics = createAnalytics({ storage, contextDeps: runtime.contextDeps });
  // Rows stored before the duplicate rule had its index get their near-duplicate bands (once; later starts find none).
  await publishing.store.duplicates.backfill(clock() - 2 * DUPLICATE_WINDOW_MS);
  let jobsRunning = true;
  const deps: AppDeps = { config, storage, clock, mailer, log, networks, tokenCipher, limiter, publishing, analytics, media, metrics, jobsRunning: () => jobsRunning };

  async function startWorkers() {
    if (config.analytics.snapshots) await ensureSnapshotJobs(storage.driver, publishing.jobs, clock());
    if (config.accountHealth.enabled) await ensureHealthSweep(storage.driver, clock());
    await ensurePublishWatchdog(storage.driver, clock());
    const jobWorker = publishing.startWorker({
      // Snapshots off: no handler, so snapshot jobs left from an earlier run fail once and stop.
      ...(config.analytics.snapshots && snapshotJobHandlers({ db: storage.driver, service: analytics.service, clock, log })),
      // The sandbox TikTok calls the app back when a video is processed (its webhook).
      ...(sandbox && sandboxTiktokJobHandlers(sandboxHostOf(deps))),
      // Account health off: no handler, so the sweep job fails once and stops.
      ...(config.accountHealth.enabled &&
        healthJobHandlers({
          storage,
          clock,
          log,
          settings: config.accountHealth,
          tokenCipher,
          adapters: PUBLISH_ADAPTERS,
          network: runtime.oauthNetwork,
          refresher: runtime.tokenRefresher,
          recorder: runtime.healthRecorder,
          fetch: networks.fetch,
        })),
      ...networkEventHandlers({ db: storage.driver, storage, contextDeps: analytics.contextDeps, adapters: analytics.adapters, automations: new AutomationStore(storage.driver), clock }),
    });
    // While the sandbox runs, its webhook inbox on this service's own origin is reachable too (webhooks/sandbox-inbox-sender.ts).
    const webhookSend = sandbox
      ? withSandboxInbox(
          createHttpsSender({ extraCaPem: config.webhooks.extraCaPem, allowPrivateTargets: config.webhooks.allowPrivateTargets }),
          () => config.publicUrl,
          createGuardedFetch({ ...config.outbound, allowedOrigins: () => [new URL(config.publicUrl).origin] }),
        )
      : undefined;
    const webhookWorker = startDeliveryWorker({ storage, tokenCipher, settings: config.webhooks, log, metrics, send: webhookSend, bodyToSend: withFreshRelinkLink(deps) });

    return {
      async stop() {
        jobsRunning = false;
        await jobWorker.stop();
        await webhookWorker.stop();
      },
    };
  }
  return { deps, storage, media, metrics, startWorkers };
}
