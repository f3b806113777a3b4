/**
 * @module
 * pinterest: everything the service knows of this network, in one module (module.ts says what each field means).
 */
import { pinterestLink } from './link.js';
import { pinterestPublishAdapter } from './publish.js';
import type { NetworkModule } from '../module.js';

export const pinterestNetwork = {
  link: pinterestLink, publish: pinterestPublishAdapter, optionsKey: 'pinterestOptions',
  api: { real: 'https://api.pinterest.com', sandboxPath: '/sandbox/pinterest' }, limits: {},
} satisfies NetworkModule;
