/**
 * @module
 * Webhook registrations: one per (profile, action), registering again replaces it; secrets are sealed, bound to the
 * profile and action, and never returned. Every operation needs the Premium, Launch, Business or Enterprise plan.
 */
import { ErrorCode } from '@social-link-kit/protocol';
import { iso } from '../core/clock.js';
import type { AppDeps } from '../app-deps.js';
import { ApiError } from '../core/errors.js';
import type { Account, Profile } from '../core/db/storage-types.js';
import type { WebhookAction } from '@social-link-kit/protocol/webhooks.js';
import { WEBHOOK_ACTION } from './registration-request.js';
import { sealWebhookSecret } from './webhook-secret.js';

const PLANS_WITH_WEBHOOKS: readonly Account['plan'][] = ['premium', 'launch', 'business', 'enterprise'];

export function assertPlanHasWebhooks(account: Account): void {
  if (!PLANS_WITH_WEBHOOKS.includes(account.plan)) {
    throw new ApiError(403, ErrorCode.planRequired, 'Webhooks need the Premium, Launch, Business or Enterprise plan.', { action: WEBHOOK_ACTION });
  }
}

export interface WebhookRegistration {
  action: WebhookAction;
  url: string;
  secret: string | null;
}

export async function registerWebhook(deps: Pick<AppDeps, 'storage' | 'tokenCipher' | 'clock'>, profile: Profile, registration: WebhookRegistration): Promise<void> {
  const { action, url, secret } = registration;
  const sealedSecret = secret === null ? null : sealWebhookSecret(deps.tokenCipher, profile.id, action, secret);
  await deps.storage.webhooks.putWebhook({ profileId: profile.id, action, url, sealedSecret, createdAt: deps.clock() });
}

/** The profile's registrations as the API shows them: whether a secret is set, never the secret. */
export async function describeWebhooks(deps: Pick<AppDeps, 'storage'>, profile: Profile) {
  const webhooks = await deps.storage.webhooks.listWebhooks(profile.id);
  return webhooks.map((webhook) => ({
    action: webhook.action,
    url: webhook.url,
    hasSecret: webhook.sealedSecret !== null,
    createdAt: iso(webhook.createdAt),
  }));
}

export async function unregisterWebhook(deps: Pick<AppDeps, 'storage'>, profile: Profile, action: WebhookAction): Promise<boolean> {
  return deps.storage.webhooks.deleteWebhook(profile.id, action);
}
