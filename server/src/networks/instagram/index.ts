/**
 * @module
 * instagram: everything the service knows of this network, in one module (module.ts says what each field means).
 */
import { instagramLink } from './link.js';
import { instagramPublishAdapter } from './publish.js';
import type { NetworkModule } from '../module.js';
import { GRAPH_VERSION } from '../meta/graph-version.js';

export const instagramNetwork = {
  link: instagramLink, publish: instagramPublishAdapter, optionsKey: 'instagramOptions',
  // Accounts linked through a facebook page use graph.facebook.com with the same paths.
  api: { real: `https://graph.instagram.com/${GRAPH_VERSION}`, sandboxPath: `/sandbox/instagram/${GRAPH_VERSION}` }, limits: { imageAspectRatio: { min: 4 / 5, max: 1.91, label: 'between 4:5 and 1.91:1' } },
} satisfies NetworkModule;
