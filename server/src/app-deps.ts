/**
 * @module
 * What the app's routes are built from: the parts compose.ts builds once (config, stores, the network registry,
 * the features) and hands to app.ts.
 */
import type { Clock } from './core/clock.js';
import type { ServiceConfig } from './config.js';
import type { TokenCipher } from './core/crypto/token-cipher.js';
import type { Mailer } from './linking/email/link-email.js';
import type { RateLimiter } from './core/limits/rate-limiter.js';
import type { NetworkRegistry } from './networks/registry.js';
import type { Storage } from './storage/storage.js';
import type { ServiceMetrics } from './core/observability/metrics.js';
import type { MediaPipeline } from './publishing/media/media-pipeline.js';
import type { Publishing } from './publishing/publishing.js';
import type { Analytics } from './analytics/analytics.js';

export interface AppDeps {
  config: ServiceConfig;
  /** The per-feature stores over one database (storage/storage.ts); services run cross-feature transactions on it. */
  storage: Storage;
  clock: Clock;
  /** Null when no SMTP server is configured. */
  mailer: Mailer | null;
  /** Which networks connect for real and which through the sandbox. */
  networks: NetworkRegistry;
  /** Counters behind the abuse limits. */
  limiter: RateLimiter;
  /** Encrypts provider tokens at rest. */
  tokenCipher: TokenCipher;
  /** The posts API and its engine; absent when the storage is not SQL. */
  publishing?: Publishing | null;
  /** Analytics and comments over the network runtime; present with `publishing`. */
  analytics?: Analytics | null;
  /** Media checks, conversion and the signed media store; absent in apps built without it. */
  media?: MediaPipeline;
  /** Access log line sink; never receives query strings or tokens. */
  log: (line: string) => void;
  /** Prometheus registry (core/observability/metrics.ts); absent, nothing is counted. */
  metrics?: ServiceMetrics;
  /** For `/ready`: false once the background workers stopped. */
  jobsRunning?: () => boolean;
}
