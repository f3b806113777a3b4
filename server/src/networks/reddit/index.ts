/**
 * @module
 * reddit: everything the service knows of this network, in one module (module.ts says what each field means).
 */
import { redditLink } from './link.js';
import { redditPublishAdapter } from './publish.js';
import type { NetworkModule } from '../module.js';
import { MB, MINUTE_MS } from '../units.js';

export const redditNetwork = {
  link: redditLink,
  publish: redditPublishAdapter,
  api: { real: 'https://oauth.reddit.com', sandboxPath: '/sandbox/reddit' },
  limits: {
    videoMaxBytes: 1024 * MB,
    rateBudgets: [
    { name: 'requests', scope: 'app', limit: 100, windowMs: MINUTE_MS, describes: 'reddit API requests per minute per OAuth client', autoRetry: true },
    ],
  },
  optionsKey: 'redditOptions',
} satisfies NetworkModule;
