/**
 * @module
 * reddit: everything the service knows of this network, in one module (module.ts says what each field means).
 */
import { redditLink } from './link.js';
import { redditPublishAdapter } from './publish.js';
import type { NetworkBudget, NetworkModule } from '../module.js';
import { MINUTE_MS } from '../units.js';

/** reddit's published rate limits (module.ts `rateBudgets`). */
const RATE_BUDGETS: NetworkBudget[] = [
  { name: 'requests', scope: 'app', limit: 100, windowMs: MINUTE_MS, describes: 'reddit API requests per minute per OAuth client', autoRetry: true },
];

export const redditNetwork = {
  link: redditLink, publish: redditPublishAdapter, optionsKey: 'redditOptions',
  api: { real: 'https://oauth.reddit.com', sandboxPath: '/sandbox/reddit' }, limits: { rateBudgets: RATE_BUDGETS },
} satisfies NetworkModule;
