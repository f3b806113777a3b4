/**
 * @module
 * facebook: everything the service knows of this network, in one module (module.ts says what each field means).
 */
import { facebookLink } from './link.js';
import { facebookPublishAdapter } from './publish.js';
import type { NetworkModule } from '../module.js';
import { GRAPH_VERSION } from '../meta/graph-version.js';

export const facebookNetwork = {
  link: facebookLink, publish: facebookPublishAdapter, optionsKey: 'facebookOptions',
  api: { real: `https://graph.facebook.com/${GRAPH_VERSION}`, sandboxPath: `/sandbox/facebook/${GRAPH_VERSION}` }, limits: {},
} satisfies NetworkModule;
