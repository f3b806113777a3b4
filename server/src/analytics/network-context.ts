/**
 * @module
 * The context an analytics or comments call runs in: the profile's linked account on the network (tokens opened
 * only when the adapter asks), the network's base URL (sandbox or real), the guarded fetch and the service clock.
 * The one account context: publishing's (publishing/publish-context.ts) is this one plus the publish-only parts.
 */
import type { Network } from '@social-link-kit/protocol';
import type { Clock } from '../core/clock.js';
import { openTokens, type TokenCipher } from '../core/crypto/token-cipher.js';
import type { NetworkContext } from '../networks/analytics-contract.js';
import type { Storage } from '../storage/storage.js';
import type { SocialAccount } from '../core/db/storage-types.js';
import type { LinkedAccountRef } from '../networks/publish-adapter.js';
import { networkModule } from '../networks/index.js';
import type { AppCredentials, StoredPostRequests } from '../networks/module.js';
import type { TokenRefresher } from '../networks/token-refresher.js';

export interface NetworkContextDeps {
  storage: Storage;
  tokenCipher: TokenCipher;
  clock: Clock;
  fetch: (url: string | URL, init?: RequestInit) => Promise<Response>;
  /** The API base for an account (sandbox or real); null when the network cannot be called here. */
  baseUrl(platform: Network, sandbox: boolean): string | null;
  /** Whether an account of `platform` on this service runs on the sandbox (accounts linked before that was kept). */
  isSandbox(platform: Network): boolean;
  log(line: string): void;
  /** Where a network that signs with the integrator's app finds the one a profile's newest post used. */
  postRequests: StoredPostRequests;
  /** Renews tokens that are about to expire before the call (the publish engine's rotation-safe refresher). */
  refresher?: TokenRefresher;
}

/** Where an account is called: where it was linked; accounts linked before that was kept follow the service's setting. */
export function accountSandbox(deps: Pick<NetworkContextDeps, 'isSandbox'>, social: SocialAccount): boolean {
  return social.sandbox ?? deps.isSandbox(social.platform);
}

/** The linked account as a network call sees it: its ids, and its tokens opened only when an adapter asks. */
export function linkedAccountOf(deps: Pick<NetworkContextDeps, 'tokenCipher'>, social: SocialAccount, sandbox: boolean): LinkedAccountRef {
  // An attempt asks for the tokens more than once (20-70 µs to open each time): opened once per sealed value, since a
  // renewal seals new ones into `social` in place. Each caller gets its own copy.
  let opened: { sealed: string; tokens: Record<string, unknown> } | null = null;
  return {
    platform: social.platform,
    accountId: social.networkUserId,
    username: social.username,
    displayName: social.displayName,
    sandbox,
    async tokens() {
      const sealed = social.tokensEncrypted;
      if (!sealed) return {};
      if (opened?.sealed !== sealed) opened = { sealed, tokens: openTokens(deps.tokenCipher, social, sealed) };
      return { ...opened.tokens };
    },
  };
}

/** The context for `platform` of the profile; null when no account of that network is linked (or it has no API here). */
/** `requestApp`: the integrator's app the request named (X, spec 5.6); without it, the one the profile's newest post used. */
export async function networkContextFor(deps: NetworkContextDeps, profileId: string, platform: Network, requestApp?: AppCredentials | null): Promise<NetworkContext | null> {
  const social = await deps.storage.linking.findSocialAccount(profileId, platform);
  if (!social) return null;
  const sandbox = accountSandbox(deps, social);
  const baseUrl = deps.baseUrl(platform, sandbox);
  if (!baseUrl) return null;
  // An expiring token is renewed first (tokens() below reads the renewed one); a refusal shows up as the network's
  // own 401 on the call, classified as a relink like any other.
  await deps.refresher?.ensureFresh(social, true);
  const app = networkModule(platform).appCredentials;
  return {
    account: linkedAccountOf(deps, social, sandbox),
    baseUrl,
    fetch: deps.fetch,
    now: deps.clock,
    log: (event, fields) => deps.log(JSON.stringify({ event, profileId, platform, ...fields })),
    // A network that signs with the integrator's own app (X) reads with the one the request named, else the one the
    // profile's newest post on it was published through.
    ...(app && { appCredentials: async () => requestApp ?? app.latestOf(deps.postRequests, deps.tokenCipher, profileId) }),
  };
}
