/**
 * @module
 * X (Twitter), server side: how an account is linked (OAuth endpoints, scopes, client authentication and
 * identity parsing). Publishing comes here too.
 */
import type { OAuthLink } from '../link.js';
import { plainIdentity } from '../oauth/identity.js';

export const twitterLink = {
  method: 'oauth',
  definition: {
    authorizationEndpoint: 'https://x.com/i/oauth2/authorize',
    tokenEndpoint: 'https://api.x.com/2/oauth2/token',
    identityEndpoint: 'https://api.x.com/2/users/me',
    scopes: ['tweet.read', 'tweet.write', 'users.read', 'offline.access', 'media.write'],
    pkce: true,
    clientAuth: 'client_secret_basic',
    identity: plainIdentity,
  },
} satisfies OAuthLink;
