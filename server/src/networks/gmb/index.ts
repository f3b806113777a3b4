/**
 * @module
 * gmb: everything the service knows of this network, in one module (module.ts says what each field means).
 */
import { gmbLink } from './link.js';
import { gmbPublishAdapter } from './publish.js';
import type { NetworkModule } from '../module.js';

export const gmbNetwork = {
  link: gmbLink,
  publish: gmbPublishAdapter,
  api: { real: 'https://mybusiness.googleapis.com', sandboxPath: '/sandbox/gmb' },
  limits: {},
  optionsKey: 'gmbOptions',
} satisfies NetworkModule;
