/**
 * @module
 * Wires analytics and comments: the stored snapshots, the service over the networks' adapters, and the snapshot
 * job's handler. Built once by compose.ts, over the network runtime's account context.
 */
import type { Network } from '@social-link-kit/protocol';
import type { PublishAdapter } from '../networks/publish-adapter.js';
import { ENGAGEMENT_ADAPTERS } from './engagement-adapters.js';
import type { Storage } from '../storage/storage.js';
import { AnalyticsService } from './analytics-service.js';
import type { NetworkContextDeps } from './network-context.js';
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
  /** The network runtime's one account context (compose.ts). */
  contextDeps: NetworkContextDeps;
}): Analytics {
  const { contextDeps } = options;
  const store = new AnalyticsStore(options.storage.driver);
  return { service: new AnalyticsService({ ...contextDeps, store, adapters: ENGAGEMENT_ADAPTERS }), store, contextDeps, adapters: ENGAGEMENT_ADAPTERS };
}
