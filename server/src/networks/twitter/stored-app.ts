/**
 * @module
 * The X developer app a profile's analytics and comment reads sign with: the one its newest twitter post was
 * published through (sealed with that post, app-credentials.ts). Reads have no request of their own to carry the
 * app (the snapshot job, comment listings), and the app that published a tweet can always read it.
 */
import type { TokenCipher } from '../../core/crypto/token-cipher.js';
import type { StoredPostRequests } from '../module.js';
import { openTwitterApp, TWITTER_APP_FIELD, type TwitterAppCredentials } from './app-credentials.js';

export async function latestTwitterAppOf(requests: StoredPostRequests, cipher: TokenCipher, profileId: string): Promise<TwitterAppCredentials | null> {
  for (const request of await requests.recentRequestsOn(profileId, 'twitter', 20)) {
    const app = openTwitterApp(cipher, profileId, request[TWITTER_APP_FIELD]);
    if (app) return app;
  }
  return null;
}
