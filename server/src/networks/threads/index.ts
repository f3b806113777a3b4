/**
 * @module
 * threads: everything the service knows of this network, in one module (module.ts says what each field means).
 */
import { threadsLink } from './link.js';
import { threadsPublishAdapter } from './publish.js';
import type { NetworkBudget, NetworkModule } from '../module.js';
import { DAY_MS } from '../units.js';
import { THREADS_VERSION } from '../meta/graph-version.js';

/** threads's published rate limits (module.ts `rateBudgets`). */
const RATE_BUDGETS: NetworkBudget[] = [
  { name: 'posts', scope: 'account', limit: 250, windowMs: DAY_MS, describes: 'threads posts per 24 hours per profile', autoRetry: false },
];

export const threadsNetwork = {
  link: threadsLink, publish: threadsPublishAdapter, optionsKey: 'threadsOptions',
  api: { real: `https://graph.threads.net/${THREADS_VERSION}`, sandboxPath: `/sandbox/threads/${THREADS_VERSION}` }, limits: { imageAspectRatio: { min: 1 / 10, max: 10, label: 'between 1:10 and 10:1' }, rateBudgets: RATE_BUDGETS },
} satisfies NetworkModule;
