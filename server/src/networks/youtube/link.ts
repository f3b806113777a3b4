/**
 * @module
 * YouTube, server side: how an account is linked (OAuth endpoints, scopes, client authentication and
 * identity parsing). Publishing comes here too.
 */
import type { OAuthLink } from '../link.js';
import { GOOGLE_LOGIN } from '../oauth/google-login.js';
import { obj, str } from '../oauth/identity.js';

export const youtubeLink = {
  method: 'oauth',
  definition: {
    ...GOOGLE_LOGIN,
    identityEndpoint: 'https://www.googleapis.com/youtube/v3/channels?part=snippet&mine=true',
    scopes: ['https://www.googleapis.com/auth/youtube.upload', 'https://www.googleapis.com/auth/youtube.readonly'],
    identity(json) {
      const channel = obj((obj(json).items as unknown[] | undefined)?.[0]);
      const snippet = obj(channel.snippet);
      const id = str(channel.id);
      if (!id) throw new Error('No YouTube channel on this Google account.');
      return { id, displayName: str(snippet.title), username: str(snippet.customUrl) };
    },
  },
} satisfies OAuthLink;
