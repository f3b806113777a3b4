/**
 * @module
 * Pinterest, server side: how an account is linked (OAuth endpoints, scopes, client authentication and
 * identity parsing). Publishing comes here too.
 */
import type { OAuthLink } from '../link.js';
import { plainIdentity } from '../oauth/identity.js';

export const pinterestLink = {
  method: 'oauth',
  definition: {
    authorizationEndpoint: 'https://www.pinterest.com/oauth/',
    tokenEndpoint: 'https://api.pinterest.com/v5/oauth/token',
    identityEndpoint: 'https://api.pinterest.com/v5/user_account',
    scopes: ['boards:read', 'pins:read', 'pins:write', 'user_accounts:read'],
    scopeSeparator: ',',
    pkce: false,
    clientAuth: 'client_secret_basic',
    identity: plainIdentity,
  },
} satisfies OAuthLink;
