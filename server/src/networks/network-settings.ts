/**
 * @module
 * The network settings from the environment (read by config.ts only): the sandbox mode and port, the OAuth client
 * credentials (`<NETWORK>_CLIENT_ID` / `_CLIENT_SECRET`, and `FACEBOOK_…` for instagram through a Facebook page),
 * bluesky's PDS, telegram's bot, and the User-Agent sent to networks.
 */

export type SandboxMode = 'auto' | 'all' | 'off';

export interface OAuthClientCredentials {
  clientId: string;
  clientSecret: string;
}

export interface NetworkSettings {
  /**
   * `SANDBOX_NETWORKS`: `auto` (sandbox for networks without credentials), `all`, or `off`; unset, `auto` in
   * development and `off` in production (settings-schema.ts refuses any other value).
   */
  sandboxMode: SandboxMode;
  /** Credentials by environment prefix (`TWITTER`, `FACEBOOK`…); only complete pairs are kept. */
  clientCredentials: Record<string, OAuthClientCredentials>;
  blueskyPdsUrl: string | null;
  telegramBotUsername: string | null;
  telegramWebhookSecret: string | null;
  /** Some networks (Reddit) refuse calls without a descriptive User-Agent. */
  userAgent: string;
  /**
   * `<NETWORK>_API_BASE_URL`: where real accounts of that network are called instead of its public API base (an
   * operator's egress proxy or a recorded stand-in); the guarded fetch allows exactly these origins.
   */
  apiBaseUrls: Partial<Record<string, string>>;
}

export function readNetworkSettings(env: NodeJS.ProcessEnv, production = false): NetworkSettings {
  const clientCredentials: Record<string, OAuthClientCredentials> = {};
  for (const [name, clientId] of Object.entries(env)) {
    const prefix = /^([A-Z0-9]+)_CLIENT_ID$/.exec(name)?.[1];
    const clientSecret = prefix ? env[`${prefix}_CLIENT_SECRET`] : undefined;
    if (prefix && clientId && clientSecret) clientCredentials[prefix] = { clientId, clientSecret };
  }
  const apiBaseUrls: Partial<Record<string, string>> = {};
  for (const [name, value] of Object.entries(env)) {
    const network = /^([A-Z]+)_API_BASE_URL$/.exec(name)?.[1];
    if (network && value && URL.canParse(value)) apiBaseUrls[network.toLowerCase()] = value.replace(/\/$/, '');
  }
  const mode = env.SANDBOX_NETWORKS;
  return {
    sandboxMode: mode === 'auto' || mode === 'all' || mode === 'off' ? mode : production ? 'off' : 'auto',
    clientCredentials,
    blueskyPdsUrl: env.BLUESKY_PDS_URL || null,
    telegramBotUsername: env.TELEGRAM_BOT_USERNAME || null,
    telegramWebhookSecret: env.TELEGRAM_WEBHOOK_SECRET || null,
    userAgent: env.NETWORK_USER_AGENT ?? 'social-link-kit/0.1 (account linking)',
    apiBaseUrls,
  };
}
