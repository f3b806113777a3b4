/**
 * @module
 * Whether a network of a session runs against the embedded sandbox, so the hosted page can say that no real
 * account is connected there.
 */
import type { InstagramLinkMethod, Network } from '../../../src/protocol/index.js';
import type { AppDeps } from '../context.js';

/** The sandbox bot's name (networks/registry.ts) when no real telegram bot is configured. */
const SANDBOX_BOT = 'SocialLinkSandboxBot';

export function isSandboxNetwork(deps: Pick<AppDeps, 'networks'>, platform: Network, instagramLinkMethod: InstagramLinkMethod): boolean {
  const { networks } = deps;
  if (platform === 'bluesky') return networks.blueskyPdsUrl?.endsWith('/sandbox') ?? false;
  if (platform === 'telegram') return networks.telegramBotUsername === SANDBOX_BOT;
  return networks.oauth(platform, instagramLinkMethod)?.sandbox ?? false;
}
