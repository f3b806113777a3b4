/**
 * @module
 * telegram: everything the service knows of this network, in one module (module.ts says what each field means).
 */
import { telegramLink } from './link.js';
import { telegramPublishAdapter } from './publish.js';
import type { NetworkBudget, NetworkModule } from '../module.js';
import { MINUTE_MS } from '../units.js';

/** telegram's published rate limits (module.ts `rateBudgets`). */
const RATE_BUDGETS: NetworkBudget[] = [
  { name: 'chat messages', scope: 'account', limit: 20, windowMs: MINUTE_MS, describes: 'telegram messages per minute to one group or channel', autoRetry: true },
];

export const telegramNetwork = {
  link: telegramLink, publish: telegramPublishAdapter, optionsKey: 'telegramOptions',
  // No fixed real base: the Bot API's URL carries the bot token.
  api: { real: null, sandboxPath: '/sandbox/telegram' }, limits: { rateBudgets: RATE_BUDGETS },
} satisfies NetworkModule;
