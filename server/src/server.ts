/**
 * @module
 * Starts the service on a socket. Used by `main.ts` and by tests (port 0 on loopback, a fake clock).
 */
import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { createApp } from './app.js';
import { systemClock, type Clock } from './clock.js';
import type { ServiceConfig } from './config.js';
import { createSmtpMailer, type Mailer } from './email/link-email.js';
import { openStorage } from './storage/open-storage.js';
import type { Storage } from './storage/types.js';
import { startDeliveryWorker } from './webhooks/delivery-worker.js';

export interface StartOptions {
  config: ServiceConfig;
  clock?: Clock;
  storage?: Storage;
  mailer?: Mailer | null;
  log?: (line: string) => void;
}

export interface RunningService {
  /** Base address actually listened on, e.g. http://127.0.0.1:43121 */
  url: string;
  storage: Storage;
  close(): Promise<void>;
}

export async function startService(options: StartOptions): Promise<RunningService> {
  const { config } = options;
  const storage = options.storage ?? (await openStorage(config));
  const mailer = options.mailer !== undefined ? options.mailer : config.smtpUrl ? createSmtpMailer(config.smtpUrl, config.emailFrom) : null;
  const app = createApp({ config, storage, clock: options.clock ?? systemClock, mailer, log: options.log ?? (() => {}) });

  const server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: app.fetch, hostname: config.host, port: config.port }, () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  const webhookWorker = startDeliveryWorker({ storage, settings: config.webhooks, log: options.log });
  return {
    url: `http://${config.host}:${port}`,
    storage,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await webhookWorker.stop();
      await storage.close();
    },
  };
}
