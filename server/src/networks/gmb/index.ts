/**
 * @module
 * gmb: everything the service knows of this network, in one module (module.ts says what each field means).
 */
import { gmbLink } from './link.js';
import { gmbPublishAdapter } from './publish.js';
import type { NetworkModule } from '../module.js';

export const gmbNetwork = {
  link: gmbLink, publish: gmbPublishAdapter, optionsKey: 'gmbOptions',
  // Local posts' host; accounts and locations live on sibling hosts (google-api.ts).
  api: { real: 'https://mybusiness.googleapis.com', sandboxPath: '/sandbox/gmb' }, limits: {},
} satisfies NetworkModule;
