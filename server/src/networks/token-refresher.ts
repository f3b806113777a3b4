/**
 * @module
 * Rotation-safe token refresh for linked accounts whose access tokens expire. Networks that rotate refresh tokens
 * (tiktok, twitter, pinterest, reddit…) accept each one ONCE: two jobs refreshing at the same time would spend it
 * twice and the loser's answer (invalid_grant) would look like a revoked account. So:
 * - one caller at a time per account holds a lease (`token_refreshes.lease_until`, taken by a conditional upsert
 *   that works the same on SQLite and PostgreSQL and across instances); the others wait until the sealed tokens
 *   change, then use the new ones;
 * - the new tokens are stored (compare-and-set on the sealed tokens the refresh started from) before anyone uses
 *   them; an empty refresh token is never stored (the old one stays);
 * - `invalid_grant` marks the account as needing a relink (`relink_tokens_hash` = the refused tokens), and every
 *   later attempt fails at once with `relink` until new tokens are linked; it is not retried;
 * - a transient failure leaves the tokens as they are (the current access token may still be good).
 * Refresh happens when the access token expires within REFRESH_MARGIN_MS, once after the network rejected it, or
 * when the account-health sweep renews it ahead of time (`refreshNow`). Every network answer is told to `onOutcome`
 * (account-health/health-check.ts records it), whoever asked for the renewal.
 */
import { createHash } from 'node:crypto';
import type { Network } from '@social-link-kit/protocol';
import type { Clock } from '../core/clock.js';
import { openTokens, sealTokens, type TokenCipher } from '../core/crypto/token-cipher.js';
import type { SqlDriver } from '../core/db/sql-driver.js';
import type { PublishAdapter, PublishFailure } from './publish-adapter.js';
import type { ResolvedOAuthNetwork } from './oauth/resolved.js';

export const REFRESH_MARGIN_MS = 5 * 60_000;
/** Longest a refresh may hold the lease (the network call has its own shorter time limit). */
export const REFRESH_LEASE_MS = 30_000;
const WAIT_STEP_MS = 50;

/** The linked account as the refresher sees it; `tokensEncrypted` is updated in place when tokens change. */
export interface RefreshableAccount {
  profileId: string;
  platform: Network;
  networkUserId: string;
  tokensEncrypted: string | null;
}

/**
 * The linked accounts' sealed tokens, kept by linking's store (its table) and handed over by the network runtime: the
 * refresher reads and replaces them only through this.
 */
export interface SealedTokenStore {
  /** The account's sealed tokens now; undefined when it is no longer linked. */
  sealedTokensOf(account: RefreshableAccount): Promise<string | null | undefined>;
  /** Compare-and-set: `next` replaces `current` only while the stored tokens are still `current`. */
  replaceSealedTokens(account: RefreshableAccount, current: string, next: string): Promise<boolean>;
}

export interface TokenRefresherDeps {
  /** The refresher's own table (`token_refreshes`: leases and refused tokens). */
  db: SqlDriver;
  accounts: SealedTokenStore;
  tokenCipher: TokenCipher;
  clock: Clock;
  fetch: (url: string | URL, init?: RequestInit) => Promise<Response>;
  adapters: Record<Network, PublishAdapter>;
  /** The network's OAuth client (real or sandbox); null when it cannot be reached. */
  network(platform: Network): ResolvedOAuthNetwork | null;
  log(line: string): void;
  /** Real-time pause while another caller refreshes (tests may shorten it). */
  sleep?(ms: number): Promise<void>;
  /** Told how each renewal at the network ended (account health); never given tokens to log. */
  onOutcome?(account: RefreshableAccount, event: RefreshEvent): Promise<void>;
}

/** How one renewal at the network ended (the tokens after it, when renewed). */
export type RefreshEvent = { kind: 'refreshed'; tokens: Record<string, unknown> } | { kind: 'rejected'; message: string } | { kind: 'unavailable'; message: string; failure?: PublishFailure };

type Reason = { force: false } | { force: true; rejectedSealed: string | null };

const hashOf = (sealed: string) => createHash('sha256').update(sealed).digest('hex');

function expiresWithin(tokens: Record<string, unknown>, now: number, marginMs: number): boolean {
  const { expiresIn, obtainedAt } = tokens;
  if (typeof expiresIn !== 'number' || typeof obtainedAt !== 'number') return false;
  return obtainedAt + expiresIn * 1000 - marginMs <= now;
}

/**
 * What an account's tokens are renewed with: the refresh token, or (Meta's instagram login and threads,
 * `renewsWithAccessToken`) the long-lived access token itself; null when they cannot be renewed.
 */
export function renewalCredentialOf(tokens: Record<string, unknown>): string | null {
  const credential = tokens.renewsWithAccessToken === true ? tokens.accessToken : (tokens.refreshToken ?? tokens.refresh_token);
  return typeof credential === 'string' && credential !== '' ? credential : null;
}

export function relinkFailure(platform: Network, why: string): PublishFailure {
  return { kind: 'failed', code: 401, message: `${platform} no longer renews this account's access (${why}); link the account again.`, retryAvailable: false, relink: true };
}

export class TokenRefresher {
  readonly #deps: TokenRefresherDeps;

  constructor(deps: TokenRefresherDeps) {
    this.#deps = deps;
  }

  /**
   * Before a network call: tokens that do not expire within the margin (renewed when needed), or why not.
   * `justRead`: the caller read `account` from the store a moment ago (the publish and network contexts): tokens that
   * need no renewal are judged on that read (issue 31: one statement less per attempt); a renewal still starts from
   * the loop's own fresh read, so the rotation safety is the same.
   */
  async ensureFresh(account: RefreshableAccount, justRead = false): Promise<PublishFailure | null> {
    if (justRead && this.#deps.adapters[account.platform].refresh && account.tokensEncrypted) {
      if (await this.needsRelink(account)) return relinkFailure(account.platform, 'its refresh was refused');
      const tokens = openTokens(this.#deps.tokenCipher, account, account.tokensEncrypted);
      if (!expiresWithin(tokens, this.#deps.clock(), REFRESH_MARGIN_MS)) return null;
    }
    return this.#run(account, { force: false });
  }

  /**
   * After the network rejected the access token: true when new tokens are in place (renewed here or by another
   * caller), false when they cannot be, or the outage that stopped the renewal (the account stays connected, so the
   * rejection is not reported as a relink: gmb's 519, a 503 elsewhere).
   */
  async afterRejection(account: RefreshableAccount): Promise<boolean | PublishFailure> {
    const rejectedSealed = account.tokensEncrypted;
    const failure = await this.#run(account, { force: true, rejectedSealed });
    if (failure && !failure.relink) return failure;
    return failure === null && account.tokensEncrypted !== rejectedSealed;
  }

  /**
   * Renews now, even when the access token is still good (the account-health sweep, pre-flight): null when new
   * tokens are in place (here or by another caller meanwhile), else why not (`relink` when only linking again helps).
   */
  refreshNow(account: RefreshableAccount): Promise<PublishFailure | null> {
    return this.#run(account, { force: true, rejectedSealed: account.tokensEncrypted });
  }

  /** Whether the network refused to renew these tokens (invalid_grant) and no new ones were linked since. */
  async needsRelink(account: RefreshableAccount): Promise<boolean> {
    if (!account.tokensEncrypted) return false;
    const row = await this.#deps.db.get('SELECT relink_tokens_hash FROM token_refreshes WHERE profile_id = ? AND platform = ?', [account.profileId, account.platform]);
    return row?.relink_tokens_hash === hashOf(account.tokensEncrypted);
  }

  async #run(account: RefreshableAccount, reason: Reason): Promise<PublishFailure | null> {
    const { db, clock } = this.#deps;
    const adapter = this.#deps.adapters[account.platform];
    if (!adapter.refresh) return null;
    // Waiting is bounded in real time: a lease left by a crashed instance lapses on the service clock.
    for (let waited = 0; ; waited += WAIT_STEP_MS) {
      if (waited > REFRESH_LEASE_MS) return { kind: 'failed', code: 503, message: `${account.platform}: another renewal of this account's access did not finish; try again.`, retryAvailable: true, relink: false };
      const sealed = await this.#deps.accounts.sealedTokensOf(account);
      if (sealed === undefined) return relinkFailure(account.platform, 'the account was unlinked');
      account.tokensEncrypted = sealed;
      if (!sealed) return null;
      if (await this.needsRelink(account)) return relinkFailure(account.platform, 'its refresh was refused');
      // Another caller renewed them since the rejected call: nothing more to do.
      if (reason.force && sealed !== reason.rejectedSealed) return null;
      const tokens = openTokens(this.#deps.tokenCipher, account, sealed);
      const now = clock();
      if (!reason.force && !expiresWithin(tokens, now, REFRESH_MARGIN_MS)) return null;
      const refreshToken = renewalCredentialOf(tokens);
      const network = this.#deps.network(account.platform);
      if (refreshToken === null || !network) return reason.force ? relinkFailure(account.platform, 'no refresh token is stored') : null;
      if (!(await this.#claim(account, now))) {
        // Someone else is renewing them: wait for the new tokens (or for their lease to lapse), then look again.
        await (this.#deps.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))))(WAIT_STEP_MS);
        continue;
      }
      // The new token's lifetime counts from when it was asked for: the network starts it then, and an answer that
      // is slow (or crosses a jump of the service clock) must not make the stored expiry later than the network's.
      const requestedAt = clock();
      try {
        const outcome = await adapter.refresh!({ network, refreshToken, fetch: this.#deps.fetch });
        if (outcome.kind === 'rejected') {
          await db.run('UPDATE token_refreshes SET relink_tokens_hash = ?, relink_at = ? WHERE profile_id = ? AND platform = ?', [hashOf(sealed), clock(), account.profileId, account.platform]);
          this.#deps.log(JSON.stringify({ event: 'token refresh refused', platform: account.platform, profileId: account.profileId }));
          await this.#tell(account, { kind: 'rejected', message: outcome.message });
          return relinkFailure(account.platform, outcome.message);
        }
        if (outcome.kind === 'unavailable') {
          this.#deps.log(JSON.stringify({ event: 'token refresh unavailable', platform: account.platform, reason: outcome.message }));
          await this.#tell(account, { kind: 'unavailable', message: outcome.message, ...(outcome.failure && { failure: outcome.failure }) });
          if (!reason.force) return null;
          return outcome.failure ?? { kind: 'failed', code: 503, message: `${account.platform} could not renew the account's access now; try again.`, retryAvailable: true, relink: false };
        }
        const renewed = {
          ...tokens,
          accessToken: outcome.tokens.accessToken,
          // A network that sends no new refresh token keeps the old one valid (it stays in `tokens`).
          ...(outcome.tokens.refreshToken !== null && { refreshToken: outcome.tokens.refreshToken }),
          expiresIn: outcome.tokens.expiresIn,
          ...(outcome.tokens.scope !== null && { scope: outcome.tokens.scope }),
          // An answer that does not say keeps the stored end (refreshing never extends tiktok's).
          ...(outcome.tokens.refreshExpiresIn !== null && { refreshExpiresAt: requestedAt + outcome.tokens.refreshExpiresIn * 1000 }),
          obtainedAt: requestedAt,
        };
        const next = sealTokens(this.#deps.tokenCipher, account, renewed);
        // Stored before use, and only over the tokens the refresh started from (a relink meanwhile wins).
        if (await this.#deps.accounts.replaceSealedTokens(account, sealed, next)) {
          account.tokensEncrypted = next;
          await this.#tell(account, { kind: 'refreshed', tokens: renewed });
          return null;
        }
      } finally {
        await db.run('UPDATE token_refreshes SET lease_until = NULL WHERE profile_id = ? AND platform = ?', [account.profileId, account.platform]);
      }
    }
  }

  /** Tells `onOutcome`; its failure (a database hiccup) must not undo a renewal that is already stored. */
  async #tell(account: RefreshableAccount, event: RefreshEvent): Promise<void> {
    try {
      await this.#deps.onOutcome?.(account, event);
    } catch (error) {
      this.#deps.log(JSON.stringify({ event: 'account health not recorded', platform: account.platform, reason: error instanceof Error ? error.message : String(error) }));
    }
  }

  /** Takes the account's refresh lease; false while another caller holds it. */
  async #claim(account: RefreshableAccount, now: number): Promise<boolean> {
    const changed = await this.#deps.db.run(
      `INSERT INTO token_refreshes (profile_id, platform, lease_until) VALUES (?, ?, ?)
       ON CONFLICT (profile_id, platform) DO UPDATE SET lease_until = excluded.lease_until
       WHERE token_refreshes.lease_until IS NULL OR token_refreshes.lease_until <= ?`,
      [account.profileId, account.platform, now + REFRESH_LEASE_MS, now],
    );
    return changed === 1;
  }

}
