/**
 * @module
 * What an OAuth network is to the connect flow: its endpoints, scopes, client authentication and identity parsing.
 * A network is used for real when its client id and secret are set (`<NETWORK>_CLIENT_ID`, `<NETWORK>_CLIENT_SECRET`);
 * otherwise it runs against the embedded sandbox authorization server.
 */
import type { NetworkTokens } from './flow.js';
import type { ResolvedOAuthNetwork } from './resolved.js';

export interface NetworkIdentity {
  id: string;
  displayName: string | null;
  username: string | null;
  /** The kind of account, where the network says (instagram `account_type`: PERSONAL, BUSINESS, MEDIA_CREATOR). */
  accountType?: string | null;
}

export interface OAuthNetworkDefinition {
  authorizationEndpoint: string;
  tokenEndpoint: string;
  /** Where refresh tokens are traded, when not at `tokenEndpoint` (the sandbox's rotating endpoint). */
  refreshEndpoint?: string;
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
  /**
   * Meta: the code's token lives an hour or two; right after the identity is read it is traded for a long-lived one
   * (meta/long-lived-token.ts). Absent where the code's tokens are the ones to keep.
   */
  longLivedToken?(network: ResolvedOAuthNetwork, tokens: NetworkTokens, identity: NetworkIdentity): Promise<NetworkTokens>;
}
