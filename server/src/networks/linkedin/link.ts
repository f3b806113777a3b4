/**
 * @module
 * LinkedIn, server side: how an account is linked (OAuth endpoints, scopes, client authentication and
 * identity parsing). Publishing comes here too.
 */
import type { OAuthLink } from '../link.js';
import { plainIdentity } from '../oauth/identity.js';

export const linkedinLink = {
  method: 'oauth',
  definition: {
    authorizationEndpoint: 'https://www.linkedin.com/oauth/v2/authorization',
    tokenEndpoint: 'https://www.linkedin.com/oauth/v2/accessToken',
    identityEndpoint: 'https://api.linkedin.com/v2/userinfo',
    scopes: ['openid', 'profile', 'w_member_social'],
    pkce: false,
    tokenTypeMissing: true,
    clientAuth: 'client_secret_post',
    identity: plainIdentity,
  },
} satisfies OAuthLink;
