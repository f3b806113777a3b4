/**
 * @module
 * snapchat: everything the service knows of this network, in one module (module.ts says what each field means).
 */
import { snapchatLink } from './link.js';
import { snapchatPublishAdapter } from './publish.js';
import type { NetworkModule } from '../module.js';

export const snapchatNetwork = {
  link: snapchatLink, publish: snapchatPublishAdapter, optionsKey: 'snapchatOptions',
  api: { real: 'https://businessapi.snapchat.com', sandboxPath: '/sandbox/snapchat' }, limits: {},
} satisfies NetworkModule;
