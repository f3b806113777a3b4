/**
 * @module
 * How a network links an account, as its folder declares it: OAuth (the shared flow in oauth/ runs its definition),
 * or a hosted-page connect of its own (credentials or a bot), which answers `POST /api/link/connect/:platform`.
 * The method must be the one the protocol's catalogue gives the network (`connectMethodOf`).
 */
import type { Context } from 'hono';
import type { AppDeps, AppEnv } from '../context.js';
import type { LinkSessionRecord } from '../core/db/storage-types.js';
import type { OAuthNetworkDefinition } from './oauth/definition.js';

export interface OAuthLink {
  method: 'oauth';
  definition: OAuthNetworkDefinition;
  /** A second login for `instagramLinkMethod: 'facebook'`: its definition, and whose client credentials it uses. */
  viaFacebookPage?: { credentialsOf: 'facebook'; definition: OAuthNetworkDefinition };
}

export interface HostedConnectLink {
  method: 'credentials' | 'bot';
  /**
   * Answers `POST /api/link/connect/:platform` for a usable session that offers this network, after the
   * connect-start limit was counted.
   */
  connect(deps: AppDeps, c: Context<AppEnv>, session: LinkSessionRecord): Promise<Response>;
}

export type NetworkLink = OAuthLink | HostedConnectLink;
