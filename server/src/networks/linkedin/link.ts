/**
 * @module
 * LinkedIn, server side: how an account is linked (OAuth endpoints, scopes, client authentication and
 * identity parsing). Publishing comes here too.
 */
import type { OAuthLink } from '../link.js';
import { UNTYPED_TOKEN_LOGIN } from '../oauth/untyped-token-login.js';

export const linkedinLink = {
  method: 'oauth',
  definition: {
    authorizationEndpoint: 'https://www.linkedin.com/oauth/v2/authorization',
    tokenEndpoint: 'https://www.linkedin.com/oauth/v2/accessToken',
    identityEndpoint: 'https://api.linkedin.com/v2/userinfo',
    scopes: ['openid', 'profile', 'w_member_social'],
    ...UNTYPED_TOKEN_LOGIN,
  },
} satisfies OAuthLink;
