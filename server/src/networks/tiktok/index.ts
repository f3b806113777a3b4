/**
 * @module
 * tiktok: everything the service knows of this network, in one module (module.ts says what each field means).
 */
import { tiktokLink } from './link.js';
import { tiktokPublishAdapter } from './publish.js';
import type { NetworkModule } from '../module.js';
import { DAY_MS, MB, MINUTE_MS } from '../units.js';

export const tiktokNetwork = {
  link: tiktokLink,
  publish: tiktokPublishAdapter,
  api: { real: 'https://open.tiktokapis.com', sandboxPath: '/sandbox/tiktok' },
  limits: {
    videoMaxBytes: 4 * 1024 * MB,
    rateBudgets: [
    { name: 'inits', scope: 'account', limit: 6, windowMs: MINUTE_MS, describes: 'tiktok publish requests per minute per creator', autoRetry: true },
    // Sources give 15 to 25 posts a day per creator; the lower figure is kept.
    { name: 'posts', scope: 'account', limit: 15, windowMs: DAY_MS, describes: 'tiktok posts per day per creator', autoRetry: false },
    ],
  },
  optionsKey: 'tikTokOptions',
} satisfies NetworkModule;
