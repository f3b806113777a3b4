/**
 * @module
 * Creating an account: its Primary Profile and first API key. Keys are returned once and stored hashed.
 */
import type { Clock } from '../core/clock.js';
import type { Account } from '../core/db/storage-types.js';
import type { Storage } from '../storage/storage.js';
import { inLinkOrder } from '../core/db/rows.js';
import { hashSecret, newId, newSecret } from '../core/tokens.js';
import { newSocialEvent } from '../webhooks/social-event.js';

export type NewAccountOptions = Partial<Omit<Account, 'id' | 'createdAt'>> & { primaryTitle?: string; apiKey?: string };

export async function createAccount(storage: Storage, clock: Clock, options: NewAccountOptions = {}) {
  const now = clock();
  const account: Account = {
    id: newId('acct_'),
    name: options.name ?? 'Development',
    plan: options.plan ?? 'business',
    maxPack: options.maxPack ?? true,
    domains: options.domains ?? ['dev'],
    allowedOrigins: options.allowedOrigins ?? [],
    instagramLinkMethod: options.instagramLinkMethod ?? 'instagram',
    createdAt: now,
  };
  const primaryProfile = {
    id: newId('pr_'),
    accountId: account.id,
    refId: newId(''),
    title: options.primaryTitle ?? account.name,
    isPrimary: true,
    createdAt: now,
  };
  await storage.accounts.createAccount(account, primaryProfile);
  const apiKey = options.apiKey ?? newSecret('sk_');
  await storage.accounts.addApiKey(account.id, hashSecret(apiKey), now);
  return { account, primaryProfile, apiKey };
}

/**
 * Deletes the profile with its linked accounts and revokes its open sessions. Like `unlinkAccount`, the same
 * transaction adds an `unlink` event per removed account when the profile has a `social` webhook. The profile's
 * registrations are kept (the profile row is only marked deleted) so those last events can still be delivered;
 * nothing can reach them through the API any more.
 */
export async function deleteProfile(storage: Storage, id: string, now: number): Promise<void> {
  await storage.driver.transaction(async (tx) => {
    // Revoking first waits (PostgreSQL) for a link committing on one of the sessions (it holds the session row),
    // so the DELETE below sees that account too and reports it; later links find the session revoked.
    await storage.linking.revokeSessionsOfProfile(tx, id, now);
    const removed = await storage.linking.removeLinkedAccountsOfProfile(tx, id);
    // Each removed account is reported as if it had been unlinked through the API.
    for (const account of inLinkOrder(removed)) {
      await storage.webhooks.enqueue(tx, id, 'social', now, (profile) =>
        newSocialEvent({ event: 'unlink', platform: account.platform, ...profile, displayName: account.display_name, at: now }),
      );
    }
    await storage.accounts.markProfileDeleted(tx, id, now);
  });
}
