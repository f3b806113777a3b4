/**
 * @module
 * Threads, server side: how an account is linked (OAuth endpoints, scopes, client authentication and
 * identity parsing). Publishing comes here too.
 */
import type { OAuthLink } from '../link.js';
import { UNTYPED_TOKEN_LOGIN } from '../oauth/untyped-token-login.js';
import { longLivedLoginToken } from '../meta/long-lived-token.js';

export const threadsLink = {
  method: 'oauth',
  definition: {
    authorizationEndpoint: 'https://threads.net/oauth/authorize',
    tokenEndpoint: 'https://graph.threads.net/oauth/access_token',
    identityEndpoint: 'https://graph.threads.net/v1.0/me?fields=id,username,name',
    // The last three: insights, reading and answering replies (engagement.ts).
    scopes: ['threads_basic', 'threads_content_publish', 'threads_manage_insights', 'threads_read_replies', 'threads_manage_replies'],
    scopeSeparator: ',',
    ...UNTYPED_TOKEN_LOGIN,
    // The hour-long token for a 60-day one that renews itself (meta/long-lived-token.ts).
    longLivedToken: longLivedLoginToken('th_exchange_token'),
  },
} satisfies OAuthLink;
