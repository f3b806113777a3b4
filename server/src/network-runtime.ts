/**
 * @module
 * The network runtime, built once by compose.ts: the per-network sandbox decision (the registry's), the one guarded
 * fetch, the one rotation-safe token refresher (every renewal recorded as account health), and the one account
 * context every feature calls a network in (publishing's account checks, analytics, comments, automations, the
 * youtube channel routes).
 */
import type { Network } from '@social-link-kit/protocol';
import type { ServiceConfig } from './config.js';
import type { Clock } from './core/clock.js';
import type { TokenCipher } from './core/crypto/token-cipher.js';
import { outcomeOfRefresh } from './account-health/health-check.js';
import { HealthRecorder } from './account-health/health-recorder.js';
import { engagementBaseUrl } from './analytics/engagement-adapters.js';
import type { NetworkContextDeps } from './analytics/network-context.js';
import { PUBLISH_ADAPTERS } from './networks/index.js';
import type { NetworkRegistry, ResolvedOAuthNetwork } from './networks/registry.js';
import { TokenRefresher } from './networks/token-refresher.js';
import type { Storage } from './storage/storage.js';

export interface NetworkRuntime {
  /** The OAuth client accounts are renewed and checked with. */
  oauthNetwork(platform: Network): ResolvedOAuthNetwork | null;
  tokenRefresher: TokenRefresher;
  healthRecorder: HealthRecorder;
  /** The account context's parts: `networkContextFor(contextDeps, profileId, platform)`. */
  contextDeps: NetworkContextDeps;
}

export function createNetworkRuntime(options: {
  storage: Storage;
  clock: Clock;
  tokenCipher: TokenCipher;
  networks: NetworkRegistry;
  config: ServiceConfig;
  log: (line: string) => void;
}): NetworkRuntime {
  const { storage, clock, tokenCipher, networks, config, log } = options;
  const oauthNetwork = (platform: Network) => networks.oauth(platform, 'instagram');
  const healthRecorder = new HealthRecorder(storage);
  const tokenRefresher = new TokenRefresher({
    db: storage.driver,
    accounts: storage.linking,
    tokenCipher,
    clock,
    fetch: networks.fetch,
    adapters: PUBLISH_ADAPTERS,
    network: oauthNetwork,
    log,
    onOutcome: (account, event) => healthRecorder.record(account, outcomeOfRefresh(event, oauthNetwork(account.platform)?.definition.scopes ?? []), clock()).then(() => {}),
  });
  const contextDeps: NetworkContextDeps = {
    storage,
    tokenCipher,
    clock,
    fetch: networks.fetch,
    baseUrl: (platform, sandbox) => engagementBaseUrl(platform, config.publicUrl, sandbox, config.networks.apiBaseUrls),
    // Only for accounts linked before each account kept where it was linked (social_accounts.sandbox).
    isSandbox: (platform) => networks.runsOnSandbox(platform),
    log,
    postRequests: storage.posts,
    refresher: tokenRefresher,
  };
  return { oauthNetwork, tokenRefresher, healthRecorder, contextDeps };
}
