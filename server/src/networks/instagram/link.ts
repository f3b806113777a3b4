/**
 * @module
 * Instagram, server side: how an account is linked (OAuth endpoints, scopes, client authentication and
 * identity parsing). Publishing comes here too.
 */
import { FACEBOOK_LOGIN } from '../facebook/link.js';
import type { OAuthLink } from '../link.js';
import { UNTYPED_TOKEN_LOGIN } from '../oauth/untyped-token-login.js';
import { longLivedLoginToken } from '../meta/long-lived-token.js';

export const instagramLink = {
  method: 'oauth',
  // Through a connected Facebook page, instagram signs in with the Meta (Facebook) app and its credentials.
  viaFacebookPage: {
    credentialsOf: 'facebook',
    definition: {
      ...FACEBOOK_LOGIN,
      // The manage_* scopes: insights, comments and private replies (engagement.ts).
      scopes: ['instagram_basic', 'instagram_content_publish', 'pages_show_list', 'business_management', 'instagram_manage_insights', 'instagram_manage_comments', 'instagram_manage_messages'],
    },
  },
  definition: {
    authorizationEndpoint: 'https://www.instagram.com/oauth/authorize',
    tokenEndpoint: 'https://api.instagram.com/oauth/access_token',
    identityEndpoint: 'https://graph.instagram.com/v21.0/me?fields=user_id,username,name,account_type',
    scopes: ['instagram_business_basic', 'instagram_business_content_publish', 'instagram_business_manage_insights', 'instagram_business_manage_comments', 'instagram_business_manage_messages'],
    scopeSeparator: ',',
    ...UNTYPED_TOKEN_LOGIN,
    // The hour-long token for a 60-day one that renews itself (meta/long-lived-token.ts).
    longLivedToken: longLivedLoginToken('ig_exchange_token'),
  },
} satisfies OAuthLink;
