/**
 * @module
 * How a network links an account, as its folder declares it: OAuth (the shared flow in oauth/ runs its definition),
 * credentials typed on the hosted page, or a bot the user sends a code to. A link half only learns who the account
 * is: linking (linking/routes/connect.ts) reads the request, commits the account and answers.
 * The method must be the one the protocol's catalogue gives the network (`connectMethodOf`).
 */
import type { SocialAccount } from '../core/db/storage-types.js';
import type { GuardedFetch } from '../core/guarded-fetch.js';
import type { OAuthNetworkDefinition } from './oauth/definition.js';

export interface OAuthLink {
  method: 'oauth';
  definition: OAuthNetworkDefinition;
  /** A second login for `instagramLinkMethod: 'facebook'`: its definition, and whose client credentials it uses. */
  viaFacebookPage?: { credentialsOf: 'facebook'; definition: OAuthNetworkDefinition };
}

/** What a connect flow learned about the account; linking seals the tokens and stores it. */
export type LinkedIdentity = Pick<SocialAccount, 'platform' | 'networkUserId' | 'displayName' | 'username' | 'linkedAt' | 'accountType'> & {
  /** Linked on the sandbox (true) or the real network (false): the account is always called there. */
  sandbox: boolean;
  /** The network's tokens, or null when there are none. */
  tokens: Record<string, unknown> | null;
};

/** What a credentials link half may use: the one guarded fetch, where logins are checked, the clock. */
export interface CredentialsLinkEnv {
  fetch: GuardedFetch;
  /** Where the network checks logins here; null when it cannot be connected on this service. */
  loginUrl: string | null;
  sandbox: boolean;
  now: number;
}

export interface CredentialsLink {
  method: 'credentials';
  /**
   * Checks the credentials the hosted page sent (`body`) with the network, and returns the account they belong
   * to. Throws the spec's `ApiError` for input it refuses or a login the network refuses.
   */
  verify(body: Record<string, unknown>, env: CredentialsLinkEnv): Promise<LinkedIdentity>;
}

/** A chat that sent a link code to the bot. */
export interface BotChat {
  id: number;
  title?: string;
  username?: string;
  first_name?: string;
  last_name?: string;
}

export interface BotLink {
  method: 'bot';
  /** Where the user sends the code, for the bot `botUsername`. */
  deepLink(botUsername: string, code: string): string;
  /** The account a chat that sent a valid code is linked as. */
  identityOf(chat: BotChat, tokens: Record<string, unknown> | null, sandbox: boolean, now: number): LinkedIdentity;
}

export type HostedConnectLink = CredentialsLink | BotLink;
export type NetworkLink = OAuthLink | HostedConnectLink;
