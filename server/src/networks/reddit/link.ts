/**
 * @module
 * Reddit, server side: how an account is linked (OAuth endpoints, scopes, client authentication and
 * identity parsing). Publishing comes here too.
 */
import type { OAuthLink } from '../link.js';
import { plainIdentity } from '../oauth/identity.js';

export const redditLink = {
  method: 'oauth',
  definition: {
    authorizationEndpoint: 'https://www.reddit.com/api/v1/authorize',
    tokenEndpoint: 'https://www.reddit.com/api/v1/access_token',
    identityEndpoint: 'https://oauth.reddit.com/api/v1/me',
    scopes: ['identity', 'submit', 'read'],
    pkce: false,
    clientAuth: 'client_secret_basic',
    extraParams: { duration: 'permanent' },
    identity: plainIdentity,
  },
} satisfies OAuthLink;
