/**
 * @module
 * Sandbox state about engagement that both the generic engagement routes (engagement-api.ts) and the Meta Graph
 * sandboxes (graph-engagement.ts) read, one per running service: the analytics fault a test switched on per
 * `platform:accountId` (`PUT /sandbox/net/{platform}/accounts/{id}/insights-fault`), and the comments already
 * answered privately (a network allows one private reply per comment). Kept in memory, like a payment sandbox's
 * test switches: a restart clears it.
 */
import type { AppDeps } from '../../context.js';

export const INSIGHTS_FAULTS = ['partial', 'down', '444', '475', 'limited'] as const;
export type InsightsFault = (typeof INSIGHTS_FAULTS)[number];

export interface EngagementState {
  faults: Map<string, InsightsFault>;
  privatelyAnswered: Set<string>;
}

const states = new WeakMap<AppDeps, EngagementState>();

export function engagementStateOf(deps: AppDeps): EngagementState {
  let state = states.get(deps);
  if (!state) {
    state = { faults: new Map(), privatelyAnswered: new Set() };
    states.set(deps, state);
  }
  return state;
}

export function insightsFaultOf(deps: AppDeps, platform: string, accountId: string): InsightsFault | null {
  return engagementStateOf(deps).faults.get(`${platform}:${accountId}`) ?? null;
}
