/**
 * @module
 * The real OAuth 2.0 endpoints, scopes and client authentication of each network. A network is used for real
 * when its client id and secret are set in the environment (`<NETWORK>_CLIENT_ID`, `<NETWORK>_CLIENT_SECRET`,
 * e.g. `TWITTER_CLIENT_ID`); otherwise it runs against the embedded sandbox authorization server.
 * bluesky (app password) and telegram (bot) do not use OAuth and are not listed here.
 */
import type { Network } from '../../../../src/protocol/index.js';

export interface NetworkIdentity {
  id: string;
  displayName: string | null;
  username: string | null;
}

export interface OAuthNetworkDefinition {
  authorizationEndpoint: string;
  tokenEndpoint: string;
  /** Read with the access token to learn which account was connected. */
  identityEndpoint: string;
  scopes: string[];
  /** Some networks join scopes with commas instead of spaces. */
  scopeSeparator?: string;
  /** Whether the network accepts PKCE (S256); sent whenever it does. */
  pkce: boolean;
  clientAuth: 'client_secret_post' | 'client_secret_basic';
  /** Extra authorization parameters (offline access and the like). */
  extraParams?: Record<string, string>;
  /** TikTok names the client id `client_key`, in the authorization URL and the token request. */
  clientIdParam?: 'client_id' | 'client_key';
  /** Token answers without `token_type` (LinkedIn, Instagram login, Threads); it is taken as `bearer`. */
  tokenTypeMissing?: boolean;
  identity(json: unknown): NetworkIdentity;
}

export type OAuthNetwork = Exclude<Network, 'bluesky' | 'telegram'>;

type Json = Record<string, unknown>;
const str = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : null);
const obj = (value: unknown): Json => (typeof value === 'object' && value !== null ? (value as Json) : {});

/** Reads `{id|sub, name, username}` at the top level or under `data`. */
function plainIdentity(json: unknown): NetworkIdentity {
  const root = obj(json);
  const data = root.data && typeof root.data === 'object' && !Array.isArray(root.data) ? obj(root.data) : root;
  const id = str(data.id) ?? str(data.sub) ?? str(data.user_id) ?? str(data.open_id);
  if (!id) throw new Error('The network did not return an account id.');
  return {
    id,
    displayName: str(data.name) ?? str(data.display_name) ?? str(data.localizedFirstName),
    username: str(data.username) ?? str(data.preferred_username) ?? str(data.email),
  };
}

const GOOGLE = {
  authorizationEndpoint: 'https://accounts.google.com/o/oauth2/v2/auth',
  tokenEndpoint: 'https://oauth2.googleapis.com/token',
  pkce: true,
  clientAuth: 'client_secret_post',
  extraParams: { access_type: 'offline', prompt: 'consent' },
} as const;

const FACEBOOK = {
  authorizationEndpoint: 'https://www.facebook.com/v21.0/dialog/oauth',
  tokenEndpoint: 'https://graph.facebook.com/v21.0/oauth/access_token',
  identityEndpoint: 'https://graph.facebook.com/v21.0/me?fields=id,name',
  pkce: false,
  clientAuth: 'client_secret_post',
  identity: plainIdentity,
} as const;

export const OAUTH_NETWORKS: Record<OAuthNetwork, OAuthNetworkDefinition> = {
  facebook: { ...FACEBOOK, scopes: ['pages_show_list', 'pages_manage_posts', 'pages_read_engagement', 'business_management'] },
  instagram: {
    authorizationEndpoint: 'https://www.instagram.com/oauth/authorize',
    tokenEndpoint: 'https://api.instagram.com/oauth/access_token',
    identityEndpoint: 'https://graph.instagram.com/v21.0/me?fields=user_id,username,name',
    scopes: ['instagram_business_basic', 'instagram_business_content_publish'],
    scopeSeparator: ',',
    pkce: false,
    tokenTypeMissing: true,
    clientAuth: 'client_secret_post',
    identity: plainIdentity,
  },
  linkedin: {
    authorizationEndpoint: 'https://www.linkedin.com/oauth/v2/authorization',
    tokenEndpoint: 'https://www.linkedin.com/oauth/v2/accessToken',
    identityEndpoint: 'https://api.linkedin.com/v2/userinfo',
    scopes: ['openid', 'profile', 'w_member_social'],
    pkce: false,
    tokenTypeMissing: true,
    clientAuth: 'client_secret_post',
    identity: plainIdentity,
  },
  twitter: {
    authorizationEndpoint: 'https://x.com/i/oauth2/authorize',
    tokenEndpoint: 'https://api.x.com/2/oauth2/token',
    identityEndpoint: 'https://api.x.com/2/users/me',
    scopes: ['tweet.read', 'tweet.write', 'users.read', 'offline.access', 'media.write'],
    pkce: true,
    clientAuth: 'client_secret_basic',
    identity: plainIdentity,
  },
  youtube: {
    ...GOOGLE,
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
  gmb: {
    ...GOOGLE,
    identityEndpoint: 'https://openidconnect.googleapis.com/v1/userinfo',
    scopes: ['openid', 'email', 'profile', 'https://www.googleapis.com/auth/business.manage'],
    identity: plainIdentity,
  },
  tiktok: {
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
  pinterest: {
    authorizationEndpoint: 'https://www.pinterest.com/oauth/',
    tokenEndpoint: 'https://api.pinterest.com/v5/oauth/token',
    identityEndpoint: 'https://api.pinterest.com/v5/user_account',
    scopes: ['boards:read', 'pins:read', 'pins:write', 'user_accounts:read'],
    scopeSeparator: ',',
    pkce: false,
    clientAuth: 'client_secret_basic',
    identity: plainIdentity,
  },
  reddit: {
    authorizationEndpoint: 'https://www.reddit.com/api/v1/authorize',
    tokenEndpoint: 'https://www.reddit.com/api/v1/access_token',
    identityEndpoint: 'https://oauth.reddit.com/api/v1/me',
    scopes: ['identity', 'submit', 'read'],
    pkce: false,
    clientAuth: 'client_secret_basic',
    extraParams: { duration: 'permanent' },
    identity: plainIdentity,
  },
  threads: {
    authorizationEndpoint: 'https://threads.net/oauth/authorize',
    tokenEndpoint: 'https://graph.threads.net/oauth/access_token',
    identityEndpoint: 'https://graph.threads.net/v1.0/me?fields=id,username,name',
    scopes: ['threads_basic', 'threads_content_publish'],
    scopeSeparator: ',',
    pkce: false,
    tokenTypeMissing: true,
    clientAuth: 'client_secret_post',
    identity: plainIdentity,
  },
  snapchat: {
    authorizationEndpoint: 'https://accounts.snapchat.com/accounts/oauth2/auth',
    tokenEndpoint: 'https://accounts.snapchat.com/accounts/oauth2/token',
    identityEndpoint: 'https://adsapi.snapchat.com/v1/me',
    scopes: ['snapchat-marketing-api'],
    pkce: false,
    clientAuth: 'client_secret_post',
    identity: (json) => plainIdentity(obj(json).me ?? json),
  },
};

/** instagram through a connected Facebook page (`instagramLinkMethod: 'facebook'`). */
export const INSTAGRAM_VIA_FACEBOOK: OAuthNetworkDefinition = {
  ...FACEBOOK,
  scopes: ['instagram_basic', 'instagram_content_publish', 'pages_show_list', 'business_management'],
};

export function isOAuthNetwork(network: Network): network is OAuthNetwork {
  return network !== 'bluesky' && network !== 'telegram';
}
