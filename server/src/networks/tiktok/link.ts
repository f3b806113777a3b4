/**
 * @module
 * TikTok, server side: how an account is linked (OAuth endpoints, scopes, client authentication and
 * identity parsing). Publishing comes here too.
 */
import type { OAuthLink } from '../link.js';
import { obj, plainIdentity } from '../oauth/identity.js';

export const tiktokLink = {
  method: 'oauth',
  definition: {
    authorizationEndpoint: 'https://www.tiktok.com/v2/auth/authorize/',
    tokenEndpoint: 'https://open.tiktokapis.com/v2/oauth/token/',
    identityEndpoint: 'https://open.tiktokapis.com/v2/user/info/?fields=open_id,display_name,username',
    scopes: ['user.info.basic', 'video.publish'],
    scopeSeparator: ',',
    pkce: true,
    clientIdParam: 'client_key',
    clientAuth: 'client_secret_post',
    identity: (json) => plainIdentity(obj(obj(json).data).user ?? json),
  },
} satisfies OAuthLink;
