/**
 * @module
 * bluesky: everything the service knows of this network, in one module (module.ts says what each field means).
 */
import { blueskyLink } from './link.js';
import { blueskyPublishAdapter } from './publish.js';
import type { NetworkBudget, NetworkModule } from '../module.js';
import { HOUR_MS } from '../units.js';

/** bluesky's published rate limits (module.ts `rateBudgets`). */
const RATE_BUDGETS: NetworkBudget[] = [
  // 5,000 points an hour, a record creation costs 3.
  { name: 'creates', scope: 'account', limit: 1_666, windowMs: HOUR_MS, describes: 'bluesky records created per hour per account', autoRetry: true },
];

export const blueskyNetwork = {
  link: blueskyLink, publish: blueskyPublishAdapter, optionsKey: 'blueskyOptions',
  // No fixed real base: the account's own PDS (its tokens carry `pdsUrl`).
  api: { real: null, sandboxPath: '/sandbox' }, limits: { rateBudgets: RATE_BUDGETS },
} satisfies NetworkModule;
