/**
 * @module
 * youtube: everything the service knows of this network, in one module (module.ts says what each field means).
 */
import { youtubeLink } from './link.js';
import { youtubePublishAdapter } from './publish.js';
import type { NetworkModule } from '../module.js';
import { DAY_MS } from '../units.js';

export const youtubeNetwork = {
  link: youtubeLink,
  publish: youtubePublishAdapter,
  api: { real: 'https://www.googleapis.com', sandboxPath: '/sandbox/youtube' },
  limits: {
    rateBudgets: [
    // videos.insert costs 1,600 of the project's 10,000 daily quota units: 6 uploads a day.
    { name: 'uploads', scope: 'app', limit: 6, windowMs: DAY_MS, describes: 'youtube uploads per day for this API project (1,600 of 10,000 quota units each)', autoRetry: false },
    ],
  },
  optionsKey: 'youTubeOptions',
} satisfies NetworkModule;
