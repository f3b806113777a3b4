import type { Storage } from '@social-link-kit/server/sandbox-host.js';
/**
 * @module
 * The analytics faults a test switched on per sandbox account (`PUT /sandbox/net/{platform}/accounts/{id}/insights-fault`):
 * one map per running service, shared by the generic engagement routes and the networks' own analytics routes, so
 * the same switch makes the real adapters' calls fail as the network would. Sandbox state of this process only.
 */

export const INSIGHTS_FAULTS = ['partial', 'down', '444', '475', 'limited'] as const;
export type InsightsFault = (typeof INSIGHTS_FAULTS)[number];

// Keyed by the service's storage: each service (and each test's service) has its own switches.
const faultsByStorage = new WeakMap<Storage, Map<string, InsightsFault>>();

/** Per `platform:accountId`: the fault switched on. */
export function insightsFaultsOf(storage: Storage): Map<string, InsightsFault> {
  let faults = faultsByStorage.get(storage);
  if (!faults) faultsByStorage.set(storage, (faults = new Map()));
  return faults;
}

export function insightsFaultOf(storage: Storage, platform: string, accountId: string): InsightsFault | undefined {
  return insightsFaultsOf(storage).get(`${platform}:${accountId}`);
}
