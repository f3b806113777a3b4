/**
 * @module
 * The operator's account administration, shared by the admin HTTP API (admin-routes.ts) and the
 * `social-link-admin` CLI (cli.ts): each operation validates its input with the protocol's admin schemas and
 * throws the spec's envelope errors (400 code 101 for bad input, 404 for an unknown account or profile).
 */
import { parseBrandingRequest } from '../branding-request.js';
import type { z } from 'zod';
import {
  AdminAccountChanges,
  AdminCreateAccountRequest,
  AdminQuotaRequest,
  type AdminAccount,
  type AdminLinkedAccountsResponse,
} from '@social-link-kit/protocol/admin.js';
import { ErrorCode, NETWORKS, NETWORK_STATUSES, isNetwork } from '@social-link-kit/protocol';
import { networkStatuses, setNetworkStatusOverride } from '../../account-health/network-status.js';
import { iso, type Clock } from '../../core/clock.js';
import type { TokenCipher } from '../../core/crypto/token-cipher.js';
import { ApiError, badRequest } from '../../core/errors.js';
import { hashSecret, newSecret } from '../../core/tokens.js';
import type { Storage } from '../../storage/storage.js';
import { createAccount } from '../service.js';
import { linkedAccountState } from './linked-account-state.js';
import { AdminStore, type AccountOverview } from './store.js';

const ACTION = 'admin';

export interface AdminDeps {
  storage: Storage;
  clock: Clock;
  /** Opens stored provider tokens to tell their expiry; never returned or printed. */
  tokenCipher: TokenCipher;
}

export function parseAdminInput<T extends z.ZodType>(schema: T, input: unknown): z.infer<T> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
  throw badRequest(`Invalid input: ${issues.map((i) => `${i.path || '(body)'}: ${i.message}`).join('; ')}.`, { issues }, ACTION);
}

function notFound(what: string, id: string): ApiError {
  return new ApiError(404, ErrorCode.badRequest, `No ${what} with id ${JSON.stringify(id)}.`, { action: ACTION });
}

export class AdminOperations {
  readonly #deps: AdminDeps;
  readonly #store: AdminStore;

  constructor(deps: AdminDeps) {
    this.#deps = deps;
    this.#store = new AdminStore(deps.storage.driver);
  }

  async createAccount(input: unknown): Promise<{ account: AdminAccount; apiKey: string }> {
    const request = parseAdminInput(AdminCreateAccountRequest, input);
    const { account, apiKey } = await createAccount(this.#deps.storage, this.#deps.clock, {
      name: request.name,
      plan: request.plan ?? 'free',
      maxPack: request.addOns?.includes('max-pack') ?? false,
      domains: request.domains ?? ['default'],
      allowedOrigins: request.allowedOrigins ?? [],
    });
    return { account: await this.showAccount(account.id), apiKey };
  }

  async listAccounts(): Promise<AdminAccount[]> {
    const overviews = await this.#store.listAccounts();
    return Promise.all(overviews.map((overview) => this.#describe(overview)));
  }

  async showAccount(accountId: string): Promise<AdminAccount> {
    const overview = (await this.#store.listAccounts()).find((account) => account.id === accountId);
    if (!overview) throw notFound('account', accountId);
    return this.#describe(overview);
  }

  async changeAccount(accountId: string, input: unknown): Promise<AdminAccount> {
    const changes = parseAdminInput(AdminAccountChanges, input);
    // The zod schema gives the shape; the account store's own rules (src/protocol/branding.ts) decide, before any write.
    const branding = changes.branding === undefined ? undefined : parseBrandingRequest(changes.branding, ACTION);
    if (!(await this.#deps.storage.accounts.findAccount(accountId))) throw notFound('account', accountId);
    await this.#deps.storage.accounts.updateAccount(accountId, {
      name: changes.name,
      plan: changes.plan,
      maxPack: changes.addOns ? changes.addOns.includes('max-pack') : undefined,
      domains: changes.domains,
      allowedOrigins: changes.allowedOrigins,
      instagramLinkMethod: changes.instagramLinkMethod,
    });
    if (changes.twitterCredentialsPolicy) await this.#store.setTwitterCredentialsPolicy(accountId, changes.twitterCredentialsPolicy);
    if (branding !== undefined) await this.#deps.storage.accounts.setBranding(accountId, branding);
    return this.showAccount(accountId);
  }

  /** A new API key replaces every key of the account at once; it is returned here only and stored as SHA-256. */
  async rotateApiKey(accountId: string): Promise<{ accountId: string; apiKey: string }> {
    if (!(await this.#deps.storage.accounts.findAccount(accountId))) throw notFound('account', accountId);
    const apiKey = newSecret('sk_');
    await this.#store.replaceApiKeys(accountId, hashSecret(apiKey), this.#deps.clock());
    return { accountId, apiKey };
  }

  async setMonthlyPostQuota(profileIdOrRefId: string, input: unknown): Promise<{ profileId: string; monthlyPostQuota: number | null }> {
    const { monthlyPostQuota } = parseAdminInput(AdminQuotaRequest, input);
    const profile = await this.#store.findProfile(profileIdOrRefId);
    if (!profile) throw notFound('profile', profileIdOrRefId);
    await this.#store.setMonthlyPostQuota(profile.id, monthlyPostQuota);
    return { profileId: profile.id, monthlyPostQuota };
  }

  async listLinkedAccounts(accountId: string): Promise<Omit<AdminLinkedAccountsResponse, 'status'>> {
    if (!(await this.#deps.storage.accounts.findAccount(accountId))) throw notFound('account', accountId);
    const now = this.#deps.clock();
    const profiles = await this.#store.profilesOf(accountId);
    return {
      accountId,
      profiles: await Promise.all(
        profiles.map(async (profile) => ({
          id: profile.id,
          refId: profile.refId,
          title: profile.title,
          isPrimary: profile.isPrimary,
          monthlyPostQuota: await this.#store.monthlyPostQuota(profile.id),
          linkedAccounts: (await this.#deps.storage.linking.listSocialAccounts(profile.id)).map((social) => {
            const { state, tokenExpiresAt } = linkedAccountState(social, this.#deps.tokenCipher, now);
            return {
              platform: social.platform,
              displayName: social.displayName,
              username: social.username,
              linkedAt: iso(social.linkedAt),
              tokenExpiresAt: tokenExpiresAt === null ? null : iso(tokenExpiresAt),
              state,
            };
          }),
        })),
      ),
    };
  }

  async #describe(overview: AccountOverview): Promise<AdminAccount> {
    const primary = await this.#deps.storage.accounts.findPrimaryProfile(overview.id);
    return {
      id: overview.id,
      name: overview.name,
      plan: overview.plan,
      addOns: overview.maxPack ? ['max-pack'] : [],
      domains: overview.domains,
      allowedOrigins: overview.allowedOrigins,
      instagramLinkMethod: overview.instagramLinkMethod,
      twitterCredentialsPolicy: overview.twitterCredentialsPolicy,
      branding: await this.#deps.storage.accounts.getBranding(overview.id),
      primaryProfile: primary ? { id: primary.id, refId: primary.refId } : null,
      apiKeys: overview.apiKeys,
      profiles: overview.profiles,
      createdAt: iso(overview.createdAt),
    };
  }

  /** Each network's status as integrators and the hosted page see it. */
  async networkStatuses() {
    return networkStatuses(this.#deps.storage.driver, this.#deps.clock());
  }

  /** The operator's word on a network (`status` null clears it); answers every network's status after it. */
  async setNetworkStatus(platform: string, status: string | null, message: string | null) {
    if (!isNetwork(platform)) throw new ApiError(400, ErrorCode.platformInvalid, `Unknown network "${platform}".`, { action: 'network status', details: { validValues: NETWORKS } });
    if (status !== null && !(NETWORK_STATUSES as readonly string[]).includes(status)) {
      throw new ApiError(400, ErrorCode.badRequest, `The status must be one of ${NETWORK_STATUSES.join(', ')}.`, { action: 'network status', details: { validValues: NETWORK_STATUSES } });
    }
    if (message !== null && message.length > 500) throw new ApiError(400, ErrorCode.badRequest, 'The message is at most 500 characters.', { action: 'network status' });
    await setNetworkStatusOverride(this.#deps.storage.driver, platform, status === null ? null : { status: status as (typeof NETWORK_STATUSES)[number], message }, this.#deps.clock());
    return this.networkStatuses();
  }
}
