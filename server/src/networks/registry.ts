/**
 * @module
 * Decides, per network, whether connections go to the real network (credentials in the environment) or to the
 * embedded sandbox. `SANDBOX_NETWORKS`: `auto` (default: sandbox for networks without credentials), `all`
 * (sandbox for every network), `off` (no sandbox: networks without credentials are unavailable, code 503).
 */
import { type InstagramLinkMethod, type Network } from '@social-link-kit/protocol';
import { NETWORKS, OAUTH_NETWORKS, isOAuthNetwork, publishBaseUrl, type OAuthNetwork } from './index.js';
import type { ResolvedOAuthNetwork } from './oauth/resolved.js';

export type { ResolvedOAuthNetwork };
import type { OAuthLink } from './link.js';
import type { OAuthNetworkDefinition } from './oauth/definition.js';
import type { NetworkSettings } from './network-settings.js';
import { createGuardedFetch, type GuardedFetch } from '../core/guarded-fetch.js';
import type { OutboundSettings } from '../core/outbound-settings.js';


export interface NetworkRegistry {
  /** Null when the network cannot be connected on this service. */
  oauth(platform: Network, instagramLinkMethod: InstagramLinkMethod): ResolvedOAuthNetwork | null;
  /** Whether the sandbox networks run on this service (`SANDBOX_NETWORKS` is not `off`). */
  readonly sandboxOn: boolean;
  /** Where bluesky logins are checked; null when bluesky is unavailable. */
  readonly blueskyPdsUrl: string | null;
  /** Where a credentials network checks logins here (bluesky: its PDS); null when it cannot be connected. */
  loginUrl(platform: Network): string | null;
  /** The bot users talk to for telegram; null when telegram is unavailable. */
  readonly telegramBotUsername: string | null;
  readonly telegramWebhookSecret: string | null;
  /**
   * Whether `platform` links on the sandbox here (instagram: through its own login, or a facebook page): the one
   * place that decides it. An account remembers where it was linked (social_accounts.sandbox) and is always called
   * there, whatever this says later.
   */
  runsOnSandbox(platform: Network, instagramLinkMethod?: InstagramLinkMethod): boolean;
  /** Whether `platform` can be connected here at all (real credentials, or the sandbox for it): else it is not offered. */
  offers(platform: Network, instagramLinkMethod?: InstagramLinkMethod): boolean;
  /**
   * The origins network calls may reach although they are private: this service's own (the sandbox networks) while
   * the sandbox runs, and the operator's own choices (`<NETWORK>_API_BASE_URL`s, `BLUESKY_PDS_URL`). Nothing else
   * private, ever.
   */
  privateOriginsAllowed(): string[];
  /**
   * The one guarded fetch of every call to a network (linking, publishing, analytics, refresh): public addresses,
   * and of the private ones only `privateOriginsAllowed()`.
   */
  readonly fetch: GuardedFetch;
}

/** The bot users talk to when telegram runs on the sandbox. */
export const SANDBOX_TELEGRAM_BOT = 'SocialLinkSandboxBot';

export function createNetworkRegistry(settings: NetworkSettings, publicUrl: () => string, outbound: OutboundSettings): NetworkRegistry {
  const mode = settings.sandboxMode;
  const sandboxOn = mode !== 'off';
  const { userAgent } = settings;
  const registry: NetworkRegistry = {
    sandboxOn,
    get blueskyPdsUrl() {
      if (settings.blueskyPdsUrl && mode !== 'all') return settings.blueskyPdsUrl;
      return sandboxOn ? `${publicUrl()}/sandbox` : mode === 'off' ? null : 'https://bsky.social';
    },
    loginUrl: (platform) => (platform === 'bluesky' ? registry.blueskyPdsUrl : null),
    telegramBotUsername: settings.telegramBotUsername || (sandboxOn ? SANDBOX_TELEGRAM_BOT : null),
    telegramWebhookSecret: settings.telegramWebhookSecret,
    oauth(platform, instagramLinkMethod) {
      if (!isOAuthNetwork(platform)) return null;
      // instagram through a Facebook page signs in with the Meta (Facebook) app, not the Instagram login app.
      const link: OAuthLink = NETWORKS[platform].link;
      const alternate = instagramLinkMethod === 'facebook' ? link.viaFacebookPage : undefined;
      const credentials = settings.clientCredentials[(alternate?.credentialsOf ?? platform).toUpperCase()];
      if (credentials && mode !== 'all') {
        const definition = alternate?.definition ?? link.definition;
        const apiBase = publishBaseUrl(platform, publicUrl(), false, settings.apiBaseUrls);
        return { platform, sandbox: false, ...credentials, issuer: new URL(definition.authorizationEndpoint).origin, definition, apiBase, userAgent, fetch: registry.fetch };
      }
      if (!sandboxOn) return null;
      const apiBase = publishBaseUrl(platform, publicUrl(), true);
      return { platform, sandbox: true, ...sandboxClientOf(platform), issuer: `${publicUrl()}/sandbox`, definition: sandboxDefinition(platform, publicUrl()), apiBase, userAgent, fetch: registry.fetch };
    },
    runsOnSandbox(platform, instagramLinkMethod = 'instagram') {
      if (platform === 'bluesky') return sandboxOn && registry.blueskyPdsUrl === `${publicUrl()}/sandbox`;
      if (platform === 'telegram') return sandboxOn && registry.telegramBotUsername === SANDBOX_TELEGRAM_BOT;
      return registry.oauth(platform, instagramLinkMethod)?.sandbox ?? false;
    },
    offers(platform, instagramLinkMethod = 'instagram') {
      if (platform === 'bluesky') return registry.blueskyPdsUrl !== null;
      if (platform === 'telegram') return registry.telegramBotUsername !== null;
      return registry.oauth(platform, instagramLinkMethod) !== null;
    },
    privateOriginsAllowed() {
      const operators = [...Object.values(settings.apiBaseUrls), settings.blueskyPdsUrl].flatMap((base) => (base ? [new URL(base).origin] : []));
      return sandboxOn ? [new URL(publicUrl()).origin, ...operators] : operators;
    },
    fetch: createGuardedFetch({ ...outbound, allowedOrigins: () => registry.privateOriginsAllowed() }),
  };
  return registry;
}

/** The client id and secret every sandbox OAuth network accepts. */
export const sandboxClientOf = (platform: Network) => ({ clientId: `sandbox-${platform}`, clientSecret: 'sandbox-secret' });

/** The sandbox OAuth server on this service's origin (sandbox/networks/oauth-server.ts), behind its consent screen. */
function sandboxDefinition(platform: OAuthNetwork, publicUrl: string): OAuthNetworkDefinition {
  return {
    authorizationEndpoint: `${publicUrl}/sandbox/authorize`,
    tokenEndpoint: `${publicUrl}/sandbox/oauth/token`,
    identityEndpoint: `${publicUrl}/sandbox/oauth/userinfo`,
    scopes: OAUTH_NETWORKS[platform].scopes,
    // Meta's trade of the hour-long token for a long-lived one, on the sandbox's Meta paths.
    ...(OAUTH_NETWORKS[platform].longLivedToken && { longLivedToken: OAUTH_NETWORKS[platform].longLivedToken }),
    pkce: true,
    clientAuth: 'client_secret_post',
    identity(json) {
      const { sub, name, preferred_username: handle, account_type: accountType } = json as Record<string, unknown>;
      if (typeof sub !== 'string' || sub === '') throw new Error('The sandbox did not return an account id.');
      return {
        id: sub,
        displayName: typeof name === 'string' ? name : null,
        username: typeof handle === 'string' ? handle : null,
        ...(typeof accountType === 'string' && { accountType }),
      };
    },
  };
}
