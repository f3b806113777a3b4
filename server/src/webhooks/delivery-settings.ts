/**
 * @module
 * Webhook delivery settings, read from the environment:
 * - `WEBHOOK_CA_FILE`        PEM file of extra CA certificates trusted for receivers, in addition to the system
 *                            roots (a private CA, or a test's self-signed certificate). TLS is always verified.
 * - `WEBHOOK_POLL_MS`        how often the worker looks for due deliveries (default 1000)
 * - `WEBHOOK_TIMEOUT_MS`     time limit of one delivery attempt, DNS lookup to response headers (default 10000)
 * - `WEBHOOK_RETRY_BASE_MS`  first retry delay; doubles per attempt, with jitter (default 5000)
 * - `WEBHOOK_RETRY_MAX_MS`   largest retry delay (default 1 hour)
 * - `WEBHOOK_MAX_ATTEMPTS`   attempts before an event is marked failed (default 25: about a day of retrying)
 * - `WEBHOOK_ALLOW_PRIVATE_TARGETS`  `1` lets webhooks go to private, loopback, link-local, CGNAT, … addresses
 *                            (tests, or receivers inside a private deployment). Off by default: registration
 *                            refuses such IP literals and `localhost`, delivery refuses names resolving to them.
 * - `WEBHOOK_OUTBOX_RETENTION_DAYS`  how long delivered and failed outbox rows are kept before the worker deletes
 *                            them (default 7; fractions allowed). Pending rows are never deleted.
 */
import { readFileSync } from 'node:fs';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface WebhookDeliverySettings {
  /** Extra trusted CA certificates (PEM), or null for the system roots only. */
  extraCaPem: string | null;
  pollMs: number;
  timeoutMs: number;
  retryBaseMs: number;
  retryMaxMs: number;
  maxAttempts: number;
  allowPrivateTargets: boolean;
  outboxRetentionMs: number;
}

export function readWebhookSettings(env: NodeJS.ProcessEnv): WebhookDeliverySettings {
  return {
    extraCaPem: env.WEBHOOK_CA_FILE ? readFileSync(env.WEBHOOK_CA_FILE, 'utf8') : null,
    pollMs: positive(env.WEBHOOK_POLL_MS, 1000),
    timeoutMs: positive(env.WEBHOOK_TIMEOUT_MS, 10_000),
    retryBaseMs: positive(env.WEBHOOK_RETRY_BASE_MS, 5000),
    retryMaxMs: positive(env.WEBHOOK_RETRY_MAX_MS, 3_600_000),
    maxAttempts: positive(env.WEBHOOK_MAX_ATTEMPTS, 25),
    allowPrivateTargets: env.WEBHOOK_ALLOW_PRIVATE_TARGETS === '1',
    outboxRetentionMs: positive(env.WEBHOOK_OUTBOX_RETENTION_DAYS, 7) * DAY_MS,
  };
}

function positive(value: string | undefined, fallback: number): number {
  const parsed = Number(value);
  return value !== undefined && value !== '' && Number.isFinite(parsed) && parsed > 0 ? parsed : fallback;
}
