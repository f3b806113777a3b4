/**
 * Shared steps of the webhook tests: delivery timing for a fast test, a profile with a `social` webhook, and a
 * link committed the way the OAuth callback commits it (so the storage queues a `link` event).
 */
import assert from 'node:assert/strict';
import type { Network } from '@social-link-kit/protocol';
import type { WebhookDeliverySettings } from '../../src/webhooks/delivery-settings.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { linkAccount } from '../../src/linking/service.js';

/**
 * Service env for deliveries within a test's patience. The attempt's time limit is not shortened below what a
 * loaded machine may need for an HTTPS request to a receiver in this process: an attempt cut at 2 s is retried,
 * and tests count attempts (webhooks.test.ts: a first delivery is one attempt).
 */
export const FAST_DELIVERY = {
  WEBHOOK_POLL_MS: '25',
  WEBHOOK_RETRY_BASE_MS: '50',
  WEBHOOK_RETRY_MAX_MS: '200',
  WEBHOOK_TIMEOUT_MS: '10000',
};

/**
 * A webhook receiver, then a service (`start`: the plain test service unless given) that delivers to it with
 * FAST_DELIVERY's timing; `env` joins the service's settings.
 */
export async function startWithReceiver(
  start: (options: { env: NodeJS.ProcessEnv }) => Promise<TestService> = startTestService,
  env: NodeJS.ProcessEnv = {},
): Promise<{ svc: TestService; receiver: WebhookReceiver }> {
  const receiver = await startWebhookReceiver();
  try {
    return { svc: await start({ env: { ...FAST_DELIVERY, ...receiver.serviceEnv, ...env } }), receiver };
  } catch (error) {
    await receiver.close();
    throw error;
  }
}

/** Closes the service, then its receiver (either may be missing when a start failed). */
export async function closeWithReceiver(svc: TestService | undefined, receiver: WebhookReceiver | undefined): Promise<void> {
  await svc?.close();
  await receiver?.close();
}

/** The service's own worker polls once at start, then sleeps (below the 2^31 ms setTimeout limit). */
export const SLEEPING_SERVICE_WORKER = { WEBHOOK_POLL_MS: '2000000000' };

/** FAST_DELIVERY's timing for a worker a test starts itself on the service's storage. */
export function fastWorkerSettings(svc: TestService): WebhookDeliverySettings {
  return { ...svc.config.webhooks, pollMs: 25, retryBaseMs: 50, retryMaxMs: 200, timeoutMs: 10_000 };
}

/** A fresh user profile; with `url`, its `social` webhook is registered through the API (with `secret` if given). */
export async function createProfileWithWebhook(svc: TestService, url?: string, secret?: string) {
  const created = await svc.api('POST', '/profiles', { body: { title: `Profile ${Math.random().toString(36).slice(2, 8)}` } });
  const profileKey = created.json.profileKey as string;
  if (url) {
    const body: Record<string, string> = { action: 'social', url };
    if (secret) body.secret = secret;
    const registered = await svc.api('POST', '/hook/webhook', { headers: { 'Profile-Key': profileKey }, body });
    assert.equal(registered.status, 200, JSON.stringify(registered.json));
  }
  const profile = (await svc.storage.accounts.findProfileByRefId(created.json.refId as string))!;
  return { profile, profileKey };
}

/**
 * Links an account through the storage commit the OAuth callback uses (the connect flow is tested elsewhere);
 * `profileKey` null means the Primary Profile. Returns the link session's id.
 */
export async function commitLinkedAccount(svc: TestService, profileId: string, profileKey: string | null, platform: Network = 'twitter') {
  const headers: Record<string, string> = profileKey ? { 'Profile-Key': profileKey } : {};
  const session = await svc.api('POST', '/profiles/link-sessions', { headers, body: {} });
  const result = await linkAccount(svc.storage, 
    session.json.sessionId as string,
    {
      profileId,
      platform,
      networkUserId: '9001',
      displayName: 'Ada Lovelace',
      username: 'ada',
      tokensEncrypted: 'ENCRYPTED-PROVIDER-TOKENS',
      linkedAt: svc.clock(),
    },
    svc.clock(),
  );
  assert.equal(result.stored, true);
  return session.json.sessionId as string;
}
