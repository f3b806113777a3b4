/**
 * @module
 * telegram: everything the service knows of this network, in one module (module.ts says what each field means).
 */
import { telegramLink } from './link.js';
import { telegramPublishAdapter } from './publish.js';
import type { NetworkModule } from '../module.js';
import { MB, MINUTE_MS } from '../units.js';

export const telegramNetwork = {
  link: telegramLink,
  publish: telegramPublishAdapter,
  // No fixed real base: the Bot API's URL carries the bot token.
  api: { real: null, sandboxPath: '/sandbox/telegram' },
  limits: {
    videoMaxBytes: 50 * MB,
    rateBudgets: [
    { name: 'chat messages', scope: 'account', limit: 20, windowMs: MINUTE_MS, describes: 'telegram messages per minute to one group or channel', autoRetry: true },
    ],
  },
  optionsKey: 'telegramOptions',
} satisfies NetworkModule;
