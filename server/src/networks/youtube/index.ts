/**
 * @module
 * youtube: everything the service knows of this network, in one module (module.ts says what each field means).
 */
import { youtubeLink } from './link.js';
import { youtubePublishAdapter } from './publish.js';
import type { NetworkBudget, NetworkModule } from '../module.js';
import { DAY_MS } from '../units.js';

/** youtube's published rate limits (module.ts `rateBudgets`). */
const RATE_BUDGETS: NetworkBudget[] = [
  // videos.insert costs 1,600 of the project's 10,000 daily quota units: 6 uploads a day.
  { name: 'uploads', scope: 'app', limit: 6, windowMs: DAY_MS, describes: 'youtube uploads per day for this API project (1,600 of 10,000 quota units each)', autoRetry: false },
];

export const youtubeNetwork = {
  link: youtubeLink, publish: youtubePublishAdapter, optionsKey: 'youTubeOptions',
  api: { real: 'https://www.googleapis.com', sandboxPath: '/sandbox/youtube' }, limits: { rateBudgets: RATE_BUDGETS },
} satisfies NetworkModule;
