/**
 * @module
 * Starts the service on a socket. Used by `main.ts` and by tests (port 0 on loopback, a fake clock).
 */
import { sandboxTiktokJobHandlers } from './sandbox/networks/tiktok-api.js';
import { getRequestListener, serve, type ServerType } from '@hono/node-server';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from './app.js';
import { systemClock, type Clock } from './core/clock.js';
import type { ServiceConfig } from './config.js';
import { loadTokenCipher } from './core/crypto/load-token-cipher.js';
import type { TokenCipher } from './core/crypto/token-cipher.js';
import { createSmtpMailer, type Mailer } from './linking/email/link-email.js';
import { createRateLimiter } from './core/limits/create-rate-limiter.js';
import { createNetworkRegistry } from './networks/registry.js';
import { openStorage } from './storage/open-storage.js';
import { DUPLICATE_WINDOW_MS } from './publishing/post-service.js';
import { createPublishing } from './publishing/publishing.js';
import { createAnalytics } from './analytics/analytics.js';
import { ensureSnapshotJobs, snapshotJobHandlers } from './analytics/snapshot-job.js';
import { networkEventHandlers } from './automations/network-events.js';
import { ensureHealthSweep, healthJobHandlers } from './account-health/health-jobs.js';
import { ensurePublishWatchdog } from './publishing/publish-watchdog.js';
import { PUBLISH_ADAPTERS } from './networks/publish-adapters.js';
import { AutomationStore } from './automations/automation-store.js';
import { createMediaPipeline } from './publishing/media/media-pipeline.js';
import type { Storage } from './storage/storage.js';
import { startDeliveryWorker } from './webhooks/delivery-worker.js';
import { createHttpsSender } from './webhooks/https-sender.js';
import { withSandboxInbox } from './webhooks/sandbox-inbox-sender.js';
import { createGuardedFetch } from './core/guarded-fetch.js';
import { sealPlainWebhookSecrets } from './webhooks/webhook-secret.js';
import { structuredLog } from './core/observability/json-log.js';
import { answerParserErrorsWithEnvelope } from './core/http/client-error.js';
import { ServiceMetrics } from './core/observability/metrics.js';
import { rawRouteListener } from './core/http/raw-listener.js';
import { linkSessionRawRoutes } from './linking/routes/link-sessions.js';
import type { AppDeps } from './context.js';
import { addStandardCollectors, standaloneMetricsApp } from './core/observability/operations-routes.js';

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

export interface RunningService {
  /** Base address actually listened on, e.g. http://127.0.0.1:43121 */
  url: string;
  storage: Storage;
  /** Seals provider tokens, the service signing key and webhook secrets. */
  tokenCipher: TokenCipher;
  /** `/metrics` on `METRICS_PORT`, or null when it is served on the main port. */
  metricsUrl: string | null;
  /** Every route the app mounted (`ALL` = middleware), for the OpenAPI coverage test. */
  routes: { method: string; path: string }[];
  close(): Promise<void>;
}

export async function startService(options: StartOptions): Promise<RunningService> {
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
  const publishing = createPublishing({ storage, clock, tokenCipher, networks, publicUrl: () => config.publicUrl, config, log, media, metrics });
  // Rows stored before the duplicate rule had its index get their near-duplicate bands (once; later starts find none).
  await publishing.store.backfillDuplicateBands(clock() - 2 * DUPLICATE_WINDOW_MS);
  let jobsRunning = true;
  const deps: AppDeps = { config, storage, clock, mailer, log, networks, tokenCipher, limiter, publishing, media, metrics, jobsRunning: () => jobsRunning };
  const app = createApp(deps);

  // The hostname stands in for a missing Host header, as `serve()` sets it up.
  const honoListener = getRequestListener(app.fetch, { hostname: config.host });
  // The link-session create and read, the integrators' hot path, are answered below Hono; everything else by Hono.
  const listener = options.rawRoutes === false ? honoListener : rawRouteListener(deps, linkSessionRawRoutes(deps), honoListener);
  const server = createServer(listener);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  answerParserErrorsWithEnvelope(server);
  const { port } = server.address() as AddressInfo;
  if (config.port === 0) {
    // Asked for any free port: the public addresses derived from it are known only now.
    const derived = config.linkingUrl === `${config.publicUrl}/link`;
    config.publicUrl = config.publicUrl.replace(/:0$/, `:${port}`);
    if (derived) config.linkingUrl = `${config.publicUrl}/link`;
  }
  const analytics = createAnalytics({ storage, clock, tokenCipher, networks, config, log, refresher: publishing.tokenRefresher });
  if (config.analytics.snapshots) await ensureSnapshotJobs(storage.driver, publishing.jobs, clock());
  if (config.accountHealth.enabled) await ensureHealthSweep(storage.driver, clock());
  await ensurePublishWatchdog(storage.driver, clock());
  const jobWorker = publishing.startWorker({
    // Snapshots off: no handler, so snapshot jobs left from an earlier run fail once and stop.
    ...(config.analytics.snapshots && snapshotJobHandlers({ db: storage.driver, service: analytics.service, clock, log })),
    // The sandbox TikTok calls the app back when a video is processed (its webhook).
    ...(sandbox && sandboxTiktokJobHandlers({ storage, clock, networks, config })),
    // Account health off: no handler, so the sweep job fails once and stops.
    ...(config.accountHealth.enabled &&
      healthJobHandlers({
        storage,
        clock,
        log,
        settings: config.accountHealth,
        tokenCipher,
        adapters: PUBLISH_ADAPTERS,
        network: publishing.oauthNetwork,
        refresher: publishing.tokenRefresher,
        recorder: publishing.healthRecorder,
        fetch: publishing.fetch,
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
  const webhookWorker = startDeliveryWorker({ storage, tokenCipher, settings: config.webhooks, log, metrics, send: webhookSend });
  const metricsServer =
    config.observability.metricsPort === null
      ? null
      : await new Promise<ServerType>((resolve) => {
          const s = serve({ fetch: standaloneMetricsApp(metrics).fetch, hostname: config.host, port: config.observability.metricsPort! }, () => resolve(s));
        });
  return {
    url: `http://${config.host}:${port}`,
    routes: app.routes.map(({ method, path }) => ({ method, path })),
    metricsUrl: metricsServer ? `http://${config.host}:${(metricsServer.address() as AddressInfo).port}/metrics` : null,
    storage,
    tokenCipher,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await new Promise<void>((resolve) => (metricsServer ? metricsServer.close(() => resolve()) : resolve()));
      jobsRunning = false;
      await jobWorker.stop();
      await webhookWorker.stop();
      await media.close();
      await storage.close();
    },
  };
}
