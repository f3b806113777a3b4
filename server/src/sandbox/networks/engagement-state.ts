/**
 * @module
 * Sandbox state about engagement that the generic engagement routes (engagement-api.ts) and the networks' own
 * sandboxes (graph-engagement.ts and the `*-engagement-api.ts` files) share, one per running service: the analytics
 * fault a test switched on (insights-faults.ts), and the comments already answered privately (a network allows one
 * private reply per comment). Kept in memory, like a payment sandbox's test switches: a restart clears it.
 */
import type { AppDeps } from '../../app-deps.js';
import { insightsFaultsOf, type InsightsFault } from './insights-faults.js';

export interface EngagementState {
  faults: Map<string, InsightsFault>;
  privatelyAnswered: Set<string>;
}

const privatelyAnsweredByDeps = new WeakMap<AppDeps, Set<string>>();

export function engagementStateOf(deps: AppDeps): EngagementState {
  let privatelyAnswered = privatelyAnsweredByDeps.get(deps);
  if (!privatelyAnswered) privatelyAnsweredByDeps.set(deps, (privatelyAnswered = new Set()));
  return { faults: insightsFaultsOf(deps.storage), privatelyAnswered };
}
