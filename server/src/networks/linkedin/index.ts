/**
 * @module
 * linkedin: everything the service knows of this network, in one module (module.ts says what each field means).
 */
import { linkedinLink } from './link.js';
import { linkedinPublishAdapter } from './publish.js';
import type { NetworkModule } from '../module.js';

export const linkedinNetwork = {
  link: linkedinLink, publish: linkedinPublishAdapter, optionsKey: 'linkedInOptions',
  api: { real: 'https://api.linkedin.com', sandboxPath: '/sandbox/linkedin' }, limits: {},
} satisfies NetworkModule;
