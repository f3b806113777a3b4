/**
 * @module
 * Starts the service on a socket: what compose.ts built, then its workers. Used by `main.ts` and by tests (port 0 on
 * loopback, a fake clock).
 */
import { getRequestListener, serve, type ServerType } from '@hono/node-server';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from './app.js';
import type { TokenCipher } from './core/crypto/token-cipher.js';
import type { Storage } from './storage/storage.js';
import { answerParserErrorsWithEnvelope } from './core/http/client-error.js';
import { rawRouteListener } from './core/http/raw-listener.js';
import { AdmissionGate } from './core/http/admission.js';
import { linkSessionRawRoutes } from './linking/routes/link-sessions.js';
import { postCreateRawRoutes, postReadRawRoutes } from './publishing/routes.js';
import type { ApiCaller } from './accounts/api-key-auth.js';
import { standaloneMetricsApp } from './core/observability/operations-routes.js';
import { composeService, type StartOptions } from './compose.js';

export type { StartOptions };

export interface RunningService {
  /** Base address actually listened on, e.g. http://127.0.0.1:43121 */
  url: string;
  storage: Storage;
  /** Seals provider tokens, the service signing key and webhook secrets. */
  tokenCipher: TokenCipher;
  /** `/metrics` on `METRICS_PORT`, or null when it is served on the main port. */
  metricsUrl: string | null;
  /** Paces `POST /api/post` while the loop is saturated and other requests arrive (core/http/admission.ts); null when `POST_CREATE_LOOP_SHARE=0`. */
  admission: AdmissionGate | null;
  /** Every route the app mounted (`ALL` = middleware) with its handler (which carries its OpenAPI description). */
  routes: { method: string; path: string; handler: unknown }[];
  close(): Promise<void>;
}

export async function startService(options: StartOptions): Promise<RunningService> {
  const { config } = options;
  const { deps, storage, media, metrics, startWorkers } = await composeService(options);
  const { tokenCipher } = deps;
  const app = createApp(deps);

  // The hostname stands in for a missing Host header, as `serve()` sets it up.
  const honoListener = getRequestListener(app.fetch, { hostname: config.host });
  // The link-session create and read, the post create and the post reads, the integrators' hot paths, are answered
  // below Hono; everything else by Hono.
  // On a saturated loop a create waits in its account's queue while other requests arrive (issue 31: a flood of posts
  // must not starve them).
  const { postCreateLoopShare, postCreateQueueMax } = config.limits;
  const admission = postCreateLoopShare > 0 && options.rawRoutes !== false ? new AdmissionGate({ share: postCreateLoopShare, queueMax: postCreateQueueMax }) : null;
  if (admission) {
    metrics.addCollector({ name: 'slk_post_create_waiting', help: 'POST /api/post requests waiting for admission.', read: async () => [{ labels: {}, value: admission.waiting }] });
    metrics.addCollector({
      name: 'slk_post_create_loop_seconds',
      help: "Estimated event-loop busy time of one POST /api/post (creates alone), which paces creates while the loop is saturated and other requests arrive.",
      read: async () => [{ labels: {}, value: admission.createMs / 1000 }],
    });
  }
  const createRoutes = deps.publishing ? postCreateRawRoutes(deps, deps.publishing).map((route) => ({ ...route, admissionKey: (caller: ApiCaller) => caller.account.id })) : [];
  const postRoutes = deps.publishing && deps.analytics ? [...createRoutes, ...postReadRawRoutes(deps, deps.publishing)] : [];
  const rawRoutes = [...linkSessionRawRoutes(deps), ...postRoutes];
  const listener = options.rawRoutes === false ? honoListener : rawRouteListener(deps, rawRoutes, honoListener, admission);
  // Idle keep-alive connections are kept 65 s (Node's default is 5 s): longer than a load balancer's usual 60 s, and
  // far longer than the guarded fetch keeps its idle sockets (4 s), so neither a proxy nor this service's own calls
  // to its embedded sandbox send a request on a socket this server is closing (a reset, an unknown publish outcome).
  const server = createServer({ keepAliveTimeout: 65_000, headersTimeout: 66_000 }, listener);
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
  const workers = await startWorkers();
  const metricsServer =
    config.observability.metricsPort === null
      ? null
      : await new Promise<ServerType>((resolve) => {
          const s = serve({ fetch: standaloneMetricsApp(metrics).fetch, hostname: config.host, port: config.observability.metricsPort! }, () => resolve(s));
        });
  return {
    url: `http://${config.host}:${port}`,
    admission,
    routes: app.routes.map(({ method, path, handler }) => ({ method, path, handler })),
    metricsUrl: metricsServer ? `http://${config.host}:${(metricsServer.address() as AddressInfo).port}/metrics` : null,
    storage,
    tokenCipher,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await new Promise<void>((resolve) => (metricsServer ? metricsServer.close(() => resolve()) : resolve()));
      await workers.stop();
      await media.close();
      await storage.close();
    },
  };
}
