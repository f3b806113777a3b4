/**
 * @module
 * Wires analytics and comments: the stored snapshots, the service over the networks' adapters, and the snapshot
 * job's handler. Built from the service's shared parts by app.ts (routes) and server.ts (the job worker).
 */
import type { Network } from '@social-link-kit/protocol';
import type { ServiceConfig } from '../config.js';
import type { Clock } from '../core/clock.js';
import type { TokenCipher } from '../core/crypto/token-cipher.js';
import type { NetworkRegistry } from '../networks/registry.js';
import type { PublishAdapter } from '../networks/publish-adapter.js';
import { ENGAGEMENT_ADAPTERS, engagementBaseUrl } from './engagement-adapters.js';
import type { Storage } from '../storage/storage.js';
import { AnalyticsService } from './analytics-service.js';
import type { NetworkContextDeps } from './network-context.js';
import { TokenRefresher } from '../networks/token-refresher.js';
import { PUBLISH_ADAPTERS } from '../networks/publish-adapters.js';
import { AnalyticsStore } from './store.js';

export interface Analytics {
  service: AnalyticsService;
  store: AnalyticsStore;
  /** What comments and replies need: the profile's account context on a network. */
  contextDeps: NetworkContextDeps;
  adapters: Record<Network, PublishAdapter>;
}

export function createAnalytics(options: {
  storage: Storage;
  clock: Clock;
  tokenCipher: TokenCipher;
  networks: NetworkRegistry;
  config: ServiceConfig;
  log: (line: string) => void;
  /** The publishing half's refresher, so renewals made for analytics are recorded as account health too. */
  refresher?: TokenRefresher;
}): Analytics {
  const { config } = options;
  const publicUrl = () => config.publicUrl;
  const fetch = options.networks.fetch;
  const sandboxOn = options.networks.sandboxOn;
  const contextDeps: NetworkContextDeps = {
    storage: options.storage,
    tokenCipher: options.tokenCipher,
    clock: options.clock,
    fetch,
    baseUrl: (platform: Network, sandbox: boolean) => engagementBaseUrl(platform, publicUrl(), sandbox, config.networks.apiBaseUrls),
    isSandbox: () => sandboxOn,
    log: options.log,
    refresher:
      options.refresher ??
      new TokenRefresher({
        db: options.storage.driver,
        tokenCipher: options.tokenCipher,
        clock: options.clock,
        fetch,
        adapters: PUBLISH_ADAPTERS,
        network: (platform) => options.networks.oauth(platform, 'instagram'),
        log: options.log,
      }),
  };
  const store = new AnalyticsStore(options.storage.driver);
  return { service: new AnalyticsService({ ...contextDeps, store, adapters: ENGAGEMENT_ADAPTERS }), store, contextDeps, adapters: ENGAGEMENT_ADAPTERS };
}
