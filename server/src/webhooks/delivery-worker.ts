/**
 * @module
 * Drains the webhook outbox. Every `pollMs` it claims due rows through the jobs engine (a lease and its token), POSTs each body
 * to the registration's URL, and records the outcome: delivered on 2xx, otherwise a retry with exponential
 * backoff and jitter, or failed after `maxAttempts`. A process killed mid-delivery leaves its rows leased;
 * once the lease runs out any worker (the restarted one, or another instance) sends them again. Delivery is
 * therefore at-least-once; receivers drop duplicates by `X-Webhook-Id` (equal to the body's `id`).
 *
 * Request headers: `Content-Type: application/json`, `X-Webhook-Id`, `X-Webhook-Action`,
 * `X-Webhook-Timestamp` (seconds since the epoch, time of this attempt), `X-Webhook-Attempt`, and
 * `X-Signature: sha256=<hex>` when the registration has a secret (see `signature.ts`), and for receivers written for
 * the public API the spec comes from, `X-Authorization-Timestamp` and (signed only) `X-Authorization-Content-SHA256`.
 * Beside them the Standard Webhooks headers: `webhook-id` (the event id, one across retries), `webhook-timestamp`
 * (this attempt) and, signed only, `webhook-signature: v1,<base64>` over `id.timestamp.body` (`verifyWebhook` in
 * the npm package checks it).
 *
 * Receivers must be public hosts unless `allowPrivateTargets` (https-sender.ts); a refused target is a failed
 * attempt like any other, retried with backoff (the receiver's DNS may be fixed meanwhile).
 *
 * About once an hour (and at start) the worker also deletes delivered and failed outbox rows that finished more
 * than `outboxRetentionMs` ago (pending rows are never deleted), and the registrations of deleted profiles whose
 * last events are done. Every instance may prune; the deletes are idempotent.
 */
import { setMaxListeners } from 'node:events';
import type { TokenCipher } from '../core/crypto/token-cipher.js';
import type { WebhookDelivery, WebhookDeliveryOutcome } from '../core/db/storage-types.js';
import type { Storage } from '../storage/storage.js';
import { retryDelayMs } from './backoff.js';
import type { WebhookDeliverySettings } from './delivery-settings.js';
import { createHttpsSender, type WebhookSender, type WebhookSendResult } from './https-sender.js';
import {
  AUTHORIZATION_TIMESTAMP_HEADER,
  CONTENT_HMAC_HEADER,
  SIGNATURE_HEADER,
  STANDARD_ID_HEADER,
  STANDARD_SIGNATURE_HEADER,
  STANDARD_TIMESTAMP_HEADER,
  contentHmac,
  signStandardWebhook,
  signWebhookBody,
} from './signature.js';
import { openWebhookSecret } from './webhook-secret.js';

/** Rows claimed per poll; a full batch means more are due, so the next poll runs at once. */
const BATCH_SIZE = 20;
/** The lease outlives the attempt's time limit, so a live worker never has its row taken from it. */
const LEASE_MARGIN_MS = 1000;
/** How often finished outbox rows past their retention are deleted, on the worker's clock. */
const PRUNE_EVERY_MS = 60 * 60 * 1000;

export interface DeliveryWorkerOptions {
  storage: Storage;
  /** Opens the registrations' sealed signing secrets (webhook-secret.ts). */
  tokenCipher: TokenCipher;
  settings: WebhookDeliverySettings;
  /** Defaults to HTTPS with the settings' CAs and private-target rule. */
  send?: WebhookSender;
  /**
   * Wall clock for scheduling, outcome times and the retention cutoff; retries are real time even when the
   * service runs on a test clock.
   */
  now?: () => number;
  log?: (line: string) => void;
  /**
   * The body to send for a delivery, made at send time from the stored one (account-health/relink-link.ts puts a
   * fresh link in `account.needs_relink`; a link is a password and is never stored). Absent: the stored body as is.
   * A failure is a failed attempt, retried like any other.
   */
  bodyToSend?: (delivery: WebhookDelivery) => Promise<string>;
  /** Counts each attempt's outcome (core/observability/metrics.ts); absent = not counted. */
  metrics?: { webhookDelivery(outcome: 'delivered' | 'retry' | 'failed'): void };
}

export interface DeliveryWorker {
  /** Stops polling, aborts attempts in flight (their rows become due again) and waits for them to settle. */
  stop(): Promise<void>;
}

export function startDeliveryWorker(options: DeliveryWorkerOptions): DeliveryWorker {
  const { storage, settings } = options;
  const send =
    options.send ?? createHttpsSender({ extraCaPem: settings.extraCaPem, allowPrivateTargets: settings.allowPrivateTargets });
  const now = options.now ?? Date.now;
  const log = options.log ?? (() => {});
  const leaseMs = settings.timeoutMs + LEASE_MARGIN_MS;
  const stopping = new AbortController();
  // Every attempt of a batch listens to it at once; more than Node's default 10 is expected, not a leak.
  setMaxListeners(BATCH_SIZE + 1, stopping.signal);
  let timer: ReturnType<typeof setTimeout> | null = null;
  let running: Promise<void> = Promise.resolve();
  let nextPruneAt = 0;

  const schedule = (delayMs: number) => {
    if (stopping.signal.aborted) return;
    timer = setTimeout(() => {
      timer = null;
      running = poll();
    }, delayMs);
  };

  async function poll(): Promise<void> {
    await pruneWhenDue();
    let fullBatch = false;
    try {
      const started = now();
      const batch = await storage.webhooks.claimWebhookDeliveries(started, started + leaseMs, BATCH_SIZE);
      fullBatch = batch.length === BATCH_SIZE;
      await Promise.all(batch.map(deliver));
    } catch (error) {
      log(`webhook worker: poll failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    schedule(fullBatch ? 0 : settings.pollMs);
  }

  async function pruneWhenDue(): Promise<void> {
    const started = now();
    if (started < nextPruneAt) return;
    nextPruneAt = started + PRUNE_EVERY_MS;
    try {
      const removed = await storage.webhooks.pruneWebhookOutbox(started - settings.outboxRetentionMs);
      if (removed > 0) log(`webhook worker: pruned ${removed} finished outbox row(s)`);
      const unregistered = await storage.webhooks.removeWebhooksOfDeletedProfiles();
      if (unregistered > 0) log(`webhook worker: removed ${unregistered} registration(s) of deleted profiles`);
    } catch (error) {
      log(`webhook worker: pruning the outbox failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  async function bodyOf(delivery: WebhookDelivery): Promise<{ ok: true; text: string } | { ok: false; error: string }> {
    if (!options.bodyToSend) return { ok: true, text: delivery.payload };
    try {
      return { ok: true, text: await options.bodyToSend(delivery) };
    } catch (error) {
      return { ok: false, error: `the event could not be completed: ${error instanceof Error ? error.message : String(error)}` };
    }
  }

  async function deliver(delivery: WebhookDelivery): Promise<void> {
    const timestamp = Math.floor(now() / 1000);
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      'User-Agent': 'social-link-kit-webhooks/1',
      'X-Webhook-Id': delivery.id,
      'X-Webhook-Action': delivery.action,
      'X-Webhook-Timestamp': String(timestamp),
      'X-Webhook-Attempt': String(delivery.attempts),
      [AUTHORIZATION_TIMESTAMP_HEADER]: String(timestamp),
      [STANDARD_ID_HEADER]: delivery.id,
      [STANDARD_TIMESTAMP_HEADER]: String(timestamp),
    };
    const signing = openWebhookSecret(options.tokenCipher, delivery.profileId, delivery.action, delivery.sealedSecret);
    const body = await bodyOf(delivery);
    if (signing.ok && signing.secret && body.ok) {
      headers[SIGNATURE_HEADER] = signWebhookBody(signing.secret, body.text);
      headers[CONTENT_HMAC_HEADER] = contentHmac(signing.secret, body.text);
      headers[STANDARD_SIGNATURE_HEADER] = await signStandardWebhook(signing.secret, delivery.id, timestamp, body.text);
    }
    // An unopenable secret (the token key was replaced without keeping the old one) is never sent unsigned.
    const result: WebhookSendResult = !signing.ok
      ? { ok: false, status: null, error: signing.error }
      : !body.ok
        ? { ok: false, status: null, error: body.error }
        : await send({ url: delivery.url, body: body.text, headers, timeoutMs: settings.timeoutMs, signal: stopping.signal });
    const at = now();
    let outcome: WebhookDeliveryOutcome;
    if (result.ok) {
      outcome = { kind: 'delivered', at };
    } else if (stopping.signal.aborted) {
      // Interrupted by shutdown, not the receiver's fault: due again at once.
      outcome = { kind: 'retry', nextAttemptAt: at, error: 'interrupted by service shutdown' };
    } else if (delivery.attempts >= settings.maxAttempts) {
      outcome = { kind: 'failed', at, error: result.error };
    } else {
      outcome = { kind: 'retry', nextAttemptAt: at + retryDelayMs(delivery.attempts, settings.retryBaseMs, settings.retryMaxMs), error: result.error };
    }
    options.metrics?.webhookDelivery(outcome.kind);
    // Origin only: a receiver URL may carry its own secret in the path or query.
    log(`webhook ${delivery.id} ${delivery.action} → ${new URL(delivery.url).origin}: attempt ${delivery.attempts} ${result.ok ? `delivered (${result.status})` : `failed (${result.error}), ${outcome.kind}`}`);
    try {
      await storage.webhooks.finishWebhookDelivery(delivery, outcome, {
        attempt: delivery.attempts,
        at,
        responseStatus: result.status,
        error: result.ok ? null : result.error,
      });
    } catch (error) {
      // The lease runs out and the row is sent again: a duplicate, never a loss.
      log(`webhook ${delivery.id}: recording the outcome failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  schedule(0);

  return {
    async stop() {
      stopping.abort();
      if (timer) clearTimeout(timer);
      timer = null;
      await running;
    },
  };
}
