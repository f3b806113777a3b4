/**
 * @module
 * Snapchat, server side: how an account is linked (OAuth endpoints, scopes, client authentication and
 * identity parsing). Publishing comes here too.
 */
import type { OAuthLink } from '../link.js';
import { obj, plainIdentity } from '../oauth/identity.js';

export const snapchatLink = {
  method: 'oauth',
  definition: {
    authorizationEndpoint: 'https://accounts.snapchat.com/accounts/oauth2/auth',
    tokenEndpoint: 'https://accounts.snapchat.com/accounts/oauth2/token',
    identityEndpoint: 'https://adsapi.snapchat.com/v1/me',
    scopes: ['snapchat-marketing-api'],
    pkce: false,
    clientAuth: 'client_secret_post',
    identity: (json) => plainIdentity(obj(json).me ?? json),
  },
} satisfies OAuthLink;
