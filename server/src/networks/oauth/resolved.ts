/**
 * @module
 * An OAuth network as this service calls it: the real network or the sandbox, decided by the registry.
 */
import type { Network } from '@social-link-kit/protocol';
import type { GuardedFetch } from '../../core/guarded-fetch.js';
import type { OAuthNetworkDefinition } from './definition.js';

export interface ResolvedOAuthNetwork {
  /** An OAuth network (index.ts `OAuthNetwork`; named loosely here so the contracts need not import the registry). */
  platform: Network;
  sandbox: boolean;
  clientId: string;
  clientSecret: string;
  /** Issuer identifier for oauth4webapi (the authorization server's origin). */
  issuer: string;
  definition: OAuthNetworkDefinition;
  /** The network's API base (publishBaseUrl): where Meta's long-lived tokens are traded and renewed. */
  apiBase: string | null;
  /** Sent on every call to the network. */
  userAgent: string;
  /** The guarded fetch every call to the network goes through (the registry's `fetch`). */
  fetch: GuardedFetch;
}
