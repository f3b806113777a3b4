/**
 * @module
 * Facebook, server side: how an account is linked (OAuth endpoints, scopes, client authentication and
 * identity parsing). Publishing comes here too.
 */
import type { OAuthLink } from '../link.js';
import { plainIdentity } from '../oauth/identity.js';
import { facebookPageToken, longLivedUserToken } from '../meta/long-lived-token.js';

/** The Meta login, shared with instagram through a Facebook page (`instagramLinkMethod: 'facebook'`). */
export const FACEBOOK_LOGIN = {
  authorizationEndpoint: 'https://www.facebook.com/v21.0/dialog/oauth',
  tokenEndpoint: 'https://graph.facebook.com/v21.0/oauth/access_token',
  identityEndpoint: 'https://graph.facebook.com/v21.0/me?fields=id,name',
  pkce: false,
  clientAuth: 'client_secret_post',
  identity: plainIdentity,
  // The code's user token lives an hour or two: traded at once for a 60-day one (meta/long-lived-token.ts).
  longLivedToken: longLivedUserToken,
} as const;

/** Analytics, comments, replies and private replies (engagement.ts). */
const FACEBOOK_ENGAGEMENT_SCOPES = ['read_insights', 'pages_read_user_content', 'pages_manage_engagement', 'pages_messaging'];

export const facebookLink = {
  method: 'oauth',
  // A page's token got with a long-lived user token does not expire.
  definition: { ...FACEBOOK_LOGIN, longLivedToken: facebookPageToken, scopes: ['pages_show_list', 'pages_manage_posts', 'pages_read_engagement', 'business_management', ...FACEBOOK_ENGAGEMENT_SCOPES] },
} satisfies OAuthLink;
