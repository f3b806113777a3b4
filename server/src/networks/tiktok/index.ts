/**
 * @module
 * tiktok: everything the service knows of this network, in one module (module.ts says what each field means).
 */
import { tiktokLink } from './link.js';
import { tiktokPublishAdapter } from './publish.js';
import type { NetworkBudget, NetworkModule } from '../module.js';
import { DAY_MS, MINUTE_MS } from '../units.js';

/** tiktok's published rate limits (module.ts `rateBudgets`). */
const RATE_BUDGETS: NetworkBudget[] = [
  { name: 'inits', scope: 'account', limit: 6, windowMs: MINUTE_MS, describes: 'tiktok publish requests per minute per creator', autoRetry: true },
  // Sources give 15 to 25 posts a day per creator; the lower figure is kept.
  { name: 'posts', scope: 'account', limit: 15, windowMs: DAY_MS, describes: 'tiktok posts per day per creator', autoRetry: false },
];

export const tiktokNetwork = {
  link: tiktokLink, publish: tiktokPublishAdapter, optionsKey: 'tikTokOptions',
  api: { real: 'https://open.tiktokapis.com', sandboxPath: '/sandbox/tiktok' }, limits: { rateBudgets: RATE_BUDGETS },
} satisfies NetworkModule;
