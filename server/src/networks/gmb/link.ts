/**
 * @module
 * Google Business Profile, server side: how an account is linked (OAuth endpoints, scopes, client authentication and
 * identity parsing). Publishing comes here too.
 */
import type { OAuthLink } from '../link.js';
import { GOOGLE_LOGIN } from '../oauth/google-login.js';
import { plainIdentity } from '../oauth/identity.js';

export const gmbLink = {
  method: 'oauth',
  definition: {
    ...GOOGLE_LOGIN,
    identityEndpoint: 'https://openidconnect.googleapis.com/v1/userinfo',
    scopes: ['openid', 'email', 'profile', 'https://www.googleapis.com/auth/business.manage'],
    identity: plainIdentity,
  },
} satisfies OAuthLink;
