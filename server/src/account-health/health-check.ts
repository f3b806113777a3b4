/**
 * @module
 * Checking one linked account, and how a network's answer is classified (the rule of README "Account health"):
 * - networks whose access tokens expire (youtube, gmb, linkedin, tiktok, pinterest, reddit; instagram login and threads
 *   with their 60-day token, once it is a day old) are renewed through the
 *   rotation-safe refresher (token-refresher.ts), which tells `outcomeOfRefresh` how it went;
 * - networks whose tokens do not expire get a cheap identity read (the link's own identity endpoint): 2xx = fine,
 *   401/403 = the grant was revoked, anything else (5xx, 429, no answer) = transient;
 * - bluesky and telegram have nothing cheap to ask: only their next time moves.
 * Permanent = `invalid_grant`, a revoked grant, or a renewal granting fewer scopes than publishing needs. Everything
 * else is transient and never asks the user to relink.
 */
import type { Network } from '@social-link-kit/protocol';
import type { Clock } from '../core/clock.js';
import { openTokens, type TokenCipher } from '../core/crypto/token-cipher.js';
import type { PublishAdapter } from '../networks/publish-adapter.js';
import type { ResolvedOAuthNetwork } from '../networks/registry.js';
import { renewalCredentialOf, type RefreshEvent, type TokenRefresher } from '../networks/token-refresher.js';
import { DAY } from './health-schedule.js';
import type { AccountKey, CheckOutcome, HealthRecorder } from './health-recorder.js';
import { missingScopes, scopeList, tokenFacts } from './token-facts.js';

const IDENTITY_TIMEOUT_MS = 10_000;

const transientCode = (message: string, status?: number) => (status === 429 || /\b429\b|rate.?limit|too many/i.test(message) ? 'rate_limited' : 'unavailable');

/** How a renewal's answer bears on the account's health; `needed` = the scopes publishing asks for. */
export function outcomeOfRefresh(event: RefreshEvent, needed: readonly string[]): CheckOutcome {
  if (event.kind === 'rejected') return { kind: 'permanent', status: 'needs_relink', code: 'invalid_grant', message: event.message };
  if (event.kind === 'unavailable') return { kind: 'transient', code: transientCode(event.message, event.failure?.code), message: event.message };
  const facts = tokenFacts(event.tokens);
  const missing = missingScopes(scopeList(facts?.scope ?? null), needed);
  if (missing.length > 0) return { kind: 'permanent', status: 'needs_relink', code: 'missing_scope', message: `The network no longer grants: ${missing.join(' ')}.` };
  return { kind: 'ok', token: facts };
}

export interface AccountCheckerDeps {
  clock: Clock;
  tokenCipher: TokenCipher;
  adapters: Record<Network, PublishAdapter>;
  /** The network's OAuth client as the account's refresher and identity read use it; null when none. */
  network(platform: Network): ResolvedOAuthNetwork | null;
  refresher: TokenRefresher;
  recorder: HealthRecorder;
  /** The guarded fetch. */
  fetch: (url: string | URL, init?: RequestInit) => Promise<Response>;
}

export interface LinkedRow extends AccountKey {
  tokensEncrypted: string | null;
}

/** Checks one account now and records the outcome (the refresher records renewals itself, through `onOutcome`). */
export async function checkAccount(deps: AccountCheckerDeps, account: LinkedRow): Promise<void> {
  const tokens = tokensOf(deps, account);
  const network = deps.network(account.platform);
  if (renewsItself(deps, account.platform, tokens) && !tooYoungForMeta(tokens, deps.clock())) {
    await deps.refresher.refreshNow({ ...account });
    return;
  }
  const accessToken = tokens?.accessToken;
  const facts = tokenFacts(tokens);
  // An access token past its known end cannot tell a revoked grant from an expired token: nothing to ask.
  if (!network || typeof accessToken !== 'string' || (facts?.expiresAt != null && facts.expiresAt <= deps.clock())) {
    await deps.recorder.record(account, { kind: 'unchecked' }, deps.clock());
    return;
  }
  await deps.recorder.record(account, await identityCheck(deps, network, accessToken, facts), deps.clock());
}

/** The account's stored tokens, opened; null when it has none. */
export function tokensOf(deps: Pick<AccountCheckerDeps, 'tokenCipher'>, account: LinkedRow): Record<string, unknown> | null {
  if (!account.tokensEncrypted) return null;
  return openTokens(deps.tokenCipher, account, account.tokensEncrypted);
}

/** Whether the service can renew these tokens by itself (a refresh token, or Meta's self-renewing long-lived token). */
export function renewsItself(deps: Pick<AccountCheckerDeps, 'adapters' | 'network'>, platform: Network, tokens: Record<string, unknown> | null): boolean {
  return Boolean(deps.adapters[platform].refresh && deps.network(platform) && tokens && renewalCredentialOf(tokens) !== null);
}

/** Meta renews a long-lived token only once it is a day old: a younger one gets the identity read instead. */
function tooYoungForMeta(tokens: Record<string, unknown> | null, now: number): boolean {
  return tokens?.renewsWithAccessToken === true && typeof tokens.obtainedAt === 'number' && now - tokens.obtainedAt < DAY;
}

async function identityCheck(deps: AccountCheckerDeps, network: ResolvedOAuthNetwork, accessToken: string, facts: ReturnType<typeof tokenFacts>): Promise<CheckOutcome> {
  try {
    const response = await deps.fetch(network.definition.identityEndpoint, {
      headers: { Authorization: `Bearer ${accessToken}`, Accept: 'application/json', 'User-Agent': network.userAgent },
      signal: AbortSignal.timeout(IDENTITY_TIMEOUT_MS),
    });
    await response.body?.cancel();
    if (response.ok) return { kind: 'ok', token: facts };
    if (response.status === 401 || response.status === 403) return { kind: 'permanent', status: 'revoked', code: 'revoked', message: `${network.platform} no longer accepts the account's access (HTTP ${response.status}).` };
    return { kind: 'transient', code: transientCode('', response.status), message: `${network.platform} answered HTTP ${response.status}.` };
  } catch (error) {
    return { kind: 'transient', code: 'unavailable', message: `${network.platform} did not answer (${error instanceof Error ? error.message : String(error)}).`.slice(0, 300) };
  }
}
