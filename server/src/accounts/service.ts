/**
 * @module
 * Creating an account: its Primary Profile and first API key. Keys are returned once and stored hashed.
 */
import type { Clock } from '../core/clock.js';
import type { Account, Storage } from '../core/db/storage-types.js';
import { hashSecret, newId, newSecret } from '../core/tokens.js';

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
  await storage.createAccount(account, primaryProfile);
  const apiKey = options.apiKey ?? newSecret('sk_');
  await storage.addApiKey(account.id, hashSecret(apiKey), now);
  return { account, primaryProfile, apiKey };
}
