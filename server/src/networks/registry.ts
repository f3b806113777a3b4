/**
 * @module
 * Decides, per network, whether connections go to the real network (credentials in the environment) or to the
 * embedded sandbox. `SANDBOX_NETWORKS`: `auto` (default: sandbox for networks without credentials), `all`
 * (sandbox for every network), `off` (no sandbox: networks without credentials are unavailable, code 503).
 */
import { NETWORK_LABELS, type InstagramLinkMethod, type Network } from '../../../src/protocol/index.js';
import { NETWORK_LINKS, OAUTH_NETWORKS, isOAuthNetwork, type OAuthNetwork } from './index.js';
import type { OAuthLink } from './link.js';
import type { OAuthNetworkDefinition } from './oauth/definition.js';
import type { NetworkSettings } from './network-settings.js';

export interface ResolvedOAuthNetwork {
  platform: OAuthNetwork;
  sandbox: boolean;
  clientId: string;
  clientSecret: string;
  /** Issuer identifier for oauth4webapi (the authorization server's origin). */
  issuer: string;
  definition: OAuthNetworkDefinition;
  /** Sent on every call to the network. */
  userAgent: string;
}

export interface NetworkRegistry {
  /** Null when the network cannot be connected on this service. */
  oauth(platform: Network, instagramLinkMethod: InstagramLinkMethod): ResolvedOAuthNetwork | null;
  /** The sandbox authorization server, when it runs. */
  readonly sandboxIssuer: string | null;
  /** Where bluesky logins are checked; null when bluesky is unavailable. */
  readonly blueskyPdsUrl: string | null;
  /** The bot users talk to for telegram; null when telegram is unavailable. */
  readonly telegramBotUsername: string | null;
  readonly telegramWebhookSecret: string | null;
}

export function createNetworkRegistry(settings: NetworkSettings, publicUrl: () => string, sandboxIssuer: string | null): NetworkRegistry {
  const mode = settings.sandboxMode;
  const sandboxOn = mode !== 'off' && sandboxIssuer !== null;
  const { userAgent } = settings;
  return {
    sandboxIssuer,
    get blueskyPdsUrl() {
      if (settings.blueskyPdsUrl && mode !== 'all') return settings.blueskyPdsUrl;
      return sandboxOn ? `${publicUrl()}/sandbox` : mode === 'off' ? null : 'https://bsky.social';
    },
    telegramBotUsername: settings.telegramBotUsername || (sandboxOn ? 'SocialLinkSandboxBot' : null),
    telegramWebhookSecret: settings.telegramWebhookSecret,
    oauth(platform, instagramLinkMethod) {
      if (!isOAuthNetwork(platform)) return null;
      // instagram through a Facebook page signs in with the Meta (Facebook) app, not the Instagram login app.
      const link: OAuthLink = NETWORK_LINKS[platform];
      const alternate = instagramLinkMethod === 'facebook' ? link.viaFacebookPage : undefined;
      const credentials = settings.clientCredentials[(alternate?.credentialsOf ?? platform).toUpperCase()];
      if (credentials && mode !== 'all') {
        const definition = alternate?.definition ?? link.definition;
        return { platform, sandbox: false, ...credentials, issuer: new URL(definition.authorizationEndpoint).origin, definition, userAgent };
      }
      if (mode === 'off' || !sandboxIssuer) return null;
      return {
        platform,
        sandbox: true,
        clientId: `sandbox-${platform}`,
        clientSecret: 'sandbox-secret',
        issuer: sandboxIssuer,
        definition: sandboxDefinition(platform, publicUrl(), sandboxIssuer),
        userAgent,
      };
    },
  };
}

function sandboxDefinition(platform: OAuthNetwork, publicUrl: string, issuer: string): OAuthNetworkDefinition {
  return {
    authorizationEndpoint: `${publicUrl}/sandbox/authorize`,
    tokenEndpoint: `${issuer}/token`,
    // Refresh tokens rotate at the sandbox networks' own endpoint (sandbox/networks/oauth-token-api.ts).
    refreshEndpoint: `${publicUrl}/sandbox/oauth/token`,
    identityEndpoint: `${issuer}/userinfo`,
    scopes: OAUTH_NETWORKS[platform].scopes,
    pkce: true,
    clientAuth: 'client_secret_post',
    identity(json) {
      const sub = (json as { sub?: unknown }).sub;
      if (typeof sub !== 'string') throw new Error('The sandbox did not return an account id.');
      return { id: `${sub}-${platform}`, displayName: `Sandbox ${NETWORK_LABELS[platform]} account`, username: `sandbox_${platform}` };
    },
  };
}
