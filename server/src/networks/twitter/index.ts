/**
 * @module
 * twitter: everything the service knows of this network, in one module (module.ts says what each field means).
 */
import { twitterLink } from './link.js';
import { partsOf, twitterPublishAdapter } from './publish.js';
import type { NetworkModule } from '../module.js';
import { openTwitterApp, requiredTwitterApp, sealTwitterApp, TWITTER_APP_FIELD } from './app-credentials.js';
import { latestTwitterAppOf } from './stored-app.js';

export const twitterNetwork = {
  link: twitterLink, publish: twitterPublishAdapter, optionsKey: 'twitterOptions',
  api: { real: 'https://api.x.com', sandboxPath: '/sandbox/twitter' }, limits: {},
  threadParts: (post) => partsOf(post).parts,
  appCredentials: {
    ofHeaders: requiredTwitterApp,
    sealedFields: (cipher, profileId, credentials) => ({ [TWITTER_APP_FIELD]: sealTwitterApp(cipher, profileId, credentials) }),
    ofRequest: (cipher, profileId, request) => openTwitterApp(cipher, profileId, request[TWITTER_APP_FIELD]),
    latestOf: latestTwitterAppOf,
  },
} satisfies NetworkModule;
