/**
 * @module
 * The linking feature's SQL: link sessions and their completions, linked (social) accounts, OAuth attempts and
 * telegram codes. Completions are rows, so concurrent completions cannot overwrite each other; one-time values are
 * spent with a single UPDATE … RETURNING. The steps that take part in a transaction spanning features
 * (linking/service.ts, accounts/service.ts) take its executor.
 */
import type { Network } from '@social-link-kit/protocol';
import { toOAuthAttempt, toSession, toSocialAccount, toTelegramCode, type RemovedAccount } from '../core/db/rows.js';
import { SqlStore } from '../core/db/sql-store.js';
import type { SqlExecutor, WriteDurability } from '../core/db/sql-driver.js';
import type { LinkSessionRecord, NewLinkSession, OAuthAttempt, SocialAccount, TelegramCode } from '../core/db/storage-types.js';
import { SessionReadCache } from './session-read-cache.js';

/**
 * A session with its completions: one row per completed network (its columns null when there is none), turned
 * into the session by rows.ts `toSession`. One indexed lookup each side; correlated subqueries with an ordered
 * JSON aggregate cost more (bench/storage-ops.mjs), and the completions are few.
 */
const SESSION_ROWS = `
  SELECT s.id, s.account_id, s.profile_id, s.origin, s.redirect, s.domain, s.allowed_social, s.instagram_link_method, s.locale,
    s.created_at, s.expires_at, s.revoked_at, s.kind,
    c.platform AS completion_platform, c.first_completed_at AS completion_first, c.last_completed_at AS completion_last
  FROM link_sessions s LEFT JOIN link_session_completions c ON c.session_id = s.id`;

export class LinkingStore extends SqlStore {
  /** The API's session reads, from memory while no commit could have changed them (session-read-cache.ts). */
  readonly #sessionReads = new SessionReadCache(this.db);

  /**
   * Needs to survive a crash of the service, not a power loss (core/db/sqlite-settings.ts): an integrator whose link
   * was lost that way gets "invalid" for it and creates a new one; nothing irreversible hangs on the row yet.
   */
  async createLinkSession(session: NewLinkSession): Promise<void> {
    await this.#insertLinkSession(session, 'session', 'process-crash');
  }

  /** `legacy` rows stand in for verified JWT links; a second insert for the same token is a no-op. */
  async #insertLinkSession(session: NewLinkSession, kind: 'session' | 'legacy', durability: WriteDurability = 'power-loss'): Promise<void> {
    await this.db.run(
      `INSERT INTO link_sessions (id, token_hash, account_id, profile_id, origin, redirect, domain, allowed_social,
         instagram_link_method, locale, created_at, expires_at, kind)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ${kind === 'legacy' ? 'ON CONFLICT (token_hash) DO NOTHING' : ''}`,
      [
        session.id,
        session.tokenHash,
        session.accountId,
        session.profileId,
        session.origin,
        session.redirect,
        session.domain,
        session.allowedSocial ? JSON.stringify(session.allowedSocial) : null,
        session.instagramLinkMethod,
        session.locale ?? null,
        session.createdAt,
        session.expiresAt,
        kind,
      ],
      durability,
    );
  }

  async findLinkSessionByTokenHash(tokenHash: string): Promise<LinkSessionRecord | null> {
    return toSession(await this.db.all(`${SESSION_ROWS} WHERE s.token_hash = ?`, [tokenHash]));
  }

  /** The records it returns are shared between answers: never modify one. */
  findLinkSession(accountId: string, sessionId: string): Promise<LinkSessionRecord | null> {
    return this.#sessionReads.find(`${accountId} ${sessionId}`, () => this.#readLinkSession(accountId, sessionId));
  }

  async #readLinkSession(accountId: string, sessionId: string): Promise<LinkSessionRecord | null> {
    return toSession(await this.db.all(`${SESSION_ROWS} WHERE s.account_id = ? AND s.id = ? AND s.kind = 'session'`, [accountId, sessionId]));
  }

  async findLinkSessionById(sessionId: string): Promise<LinkSessionRecord | null> {
    return toSession(await this.db.all(`${SESSION_ROWS} WHERE s.id = ?`, [sessionId]));
  }

  async revokeLinkSession(accountId: string, sessionId: string, now: number): Promise<LinkSessionRecord | null> {
    await this.db.run("UPDATE link_sessions SET revoked_at = ? WHERE account_id = ? AND id = ? AND revoked_at IS NULL AND kind = 'session'", [
      now,
      accountId,
      sessionId,
    ]);
    // Its own write, read back from the database itself: the answer must show this revoke whatever a cache holds.
    return this.#readLinkSession(accountId, sessionId);
  }

  async findOrCreateLegacyLinkSession(session: NewLinkSession): Promise<LinkSessionRecord> {
    await this.#insertLinkSession(session, 'legacy');
    const found = toSession(await this.db.all(`${SESSION_ROWS} WHERE s.token_hash = ? AND s.kind = 'legacy'`, [session.tokenHash]));
    if (!found) throw new Error('legacy link session row missing after insert');
    return found;
  }

  async listSocialAccounts(profileId: string): Promise<SocialAccount[]> {
    return (await this.db.all('SELECT * FROM social_accounts WHERE profile_id = ? ORDER BY linked_at, platform', [profileId])).map(toSocialAccount);
  }

  async findSocialAccount(profileId: string, platform: Network): Promise<SocialAccount | null> {
    const row = await this.db.get('SELECT * FROM social_accounts WHERE profile_id = ? AND platform = ?', [profileId, platform]);
    return row ? toSocialAccount(row) : null;
  }

  /** The account's sealed tokens; undefined when it is no longer linked (networks/token-refresher.ts). */
  async sealedTokensOf(account: { profileId: string; platform: Network; networkUserId: string }): Promise<string | null | undefined> {
    const row = await this.db.get('SELECT tokens_encrypted FROM social_accounts WHERE profile_id = ? AND platform = ? AND network_user_id = ?', [
      account.profileId,
      account.platform,
      account.networkUserId,
    ]);
    return row ? ((row.tokens_encrypted as string | null) ?? null) : undefined;
  }

  /** Renewed tokens replace the ones the renewal started from, and only those (a relink meanwhile wins). */
  async replaceSealedTokens(account: { profileId: string; platform: Network }, current: string, next: string): Promise<boolean> {
    const changed = await this.db.run('UPDATE social_accounts SET tokens_encrypted = ? WHERE profile_id = ? AND platform = ? AND tokens_encrypted = ?', [
      next,
      account.profileId,
      account.platform,
      current,
    ]);
    return changed === 1;
  }

  async createOAuthAttempt(attempt: OAuthAttempt): Promise<void> {
    await this.db.run(
      `INSERT INTO oauth_attempts (ticket_hash, state_hash, session_id, platform, code_verifier, binding_hash, created_at, expires_at, started_at, used_at, outcome)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        attempt.ticketHash,
        attempt.stateHash,
        attempt.sessionId,
        attempt.platform,
        attempt.codeVerifier,
        attempt.bindingHash,
        attempt.createdAt,
        attempt.expiresAt,
        attempt.startedAt,
        attempt.usedAt,
        attempt.outcome,
      ],
    );
  }

  async startOAuthAttempt(ticketHash: string, binding: { bindingHash: string; stateHash: string }, now: number): Promise<OAuthAttempt | null> {
    const row = await this.db.get(
      `UPDATE oauth_attempts SET started_at = ?, binding_hash = ?, state_hash = ?
       WHERE ticket_hash = ? AND started_at IS NULL AND expires_at > ? RETURNING *`,
      [now, binding.bindingHash, binding.stateHash, ticketHash, now],
    );
    return row ? toOAuthAttempt(row) : null;
  }

  async useOAuthAttempt(stateHash: string, now: number): Promise<OAuthAttempt | null> {
    const row = await this.db.get(
      `UPDATE oauth_attempts SET used_at = ?
       WHERE state_hash = ? AND used_at IS NULL AND started_at IS NOT NULL AND expires_at > ? RETURNING *`,
      [now, stateHash, now],
    );
    return row ? toOAuthAttempt(row) : null;
  }

  async findOAuthAttempt(stateHash: string): Promise<OAuthAttempt | null> {
    const row = await this.db.get('SELECT * FROM oauth_attempts WHERE state_hash = ?', [stateHash]);
    return row ? toOAuthAttempt(row) : null;
  }

  async recordOAuthOutcome(stateHash: string, outcome: string): Promise<void> {
    await this.db.run('UPDATE oauth_attempts SET outcome = ? WHERE state_hash = ?', [outcome, stateHash]);
  }

  async createTelegramCode(code: TelegramCode): Promise<void> {
    await this.db.run('INSERT INTO telegram_codes (code_hash, session_id, created_at, expires_at, used_at) VALUES (?, ?, ?, ?, ?)', [
      code.codeHash,
      code.sessionId,
      code.createdAt,
      code.expiresAt,
      code.usedAt,
    ]);
  }

  async useTelegramCode(codeHash: string, now: number): Promise<TelegramCode | null> {
    const row = await this.db.get('UPDATE telegram_codes SET used_at = ? WHERE code_hash = ? AND used_at IS NULL AND expires_at > ? RETURNING *', [
      now,
      codeHash,
      now,
    ]);
    return row ? toTelegramCode(row) : null;
  }

  /**
   * Inside a link's transaction: whether the session can still take it. On PostgreSQL the row lock orders this
   * commit against a concurrent revoke of the same session.
   */
  async lockSessionForLink(tx: SqlExecutor, sessionId: string, now: number): Promise<'usable' | 'expired' | 'revoked' | 'missing'> {
    const session = await tx.get(`SELECT expires_at, revoked_at FROM link_sessions WHERE id = ?${this.dialect.forUpdate}`, [sessionId]);
    if (!session) return 'missing';
    if (session.revoked_at !== null) return 'revoked';
    if ((session.expires_at as number) <= now) return 'expired';
    return 'usable';
  }

  /** Stores (or replaces) the profile's account on the network and records the completion on the session. */
  async storeLinkedAccount(tx: SqlExecutor, sessionId: string, account: SocialAccount, now: number): Promise<void> {
    await tx.run(
      `INSERT INTO social_accounts (profile_id, platform, network_user_id, display_name, username, tokens_encrypted, linked_at, account_type, sandbox)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (profile_id, platform) DO UPDATE SET network_user_id = excluded.network_user_id,
         display_name = excluded.display_name, username = excluded.username,
         tokens_encrypted = excluded.tokens_encrypted, linked_at = excluded.linked_at, account_type = excluded.account_type,
         sandbox = excluded.sandbox`,
      [account.profileId, account.platform, account.networkUserId, account.displayName, account.username, account.tokensEncrypted, account.linkedAt, account.accountType ?? null, account.sandbox === undefined || account.sandbox === null ? null : Number(account.sandbox)],
    );
    await tx.run(
      `INSERT INTO link_session_completions (session_id, platform, first_completed_at, last_completed_at)
       VALUES (?, ?, ?, ?)
       ON CONFLICT (session_id, platform) DO UPDATE SET last_completed_at = excluded.last_completed_at`,
      [sessionId, account.platform, now, now],
    );
  }

  /** Removes the profile's account on the network; returns what it was (its display name), or null when none. */
  async removeLinkedAccount(tx: SqlExecutor, profileId: string, platform: Network): Promise<{ displayName: string | null } | null> {
    const removed = await tx.get('DELETE FROM social_accounts WHERE profile_id = ? AND platform = ? RETURNING display_name', [profileId, platform]);
    return removed ? { displayName: (removed.display_name as string | null) ?? null } : null;
  }

  /** Revokes every open session of the profile (first in a profile deletion: see accounts/service.ts). */
  async revokeSessionsOfProfile(tx: SqlExecutor, profileId: string, now: number): Promise<void> {
    await tx.run('UPDATE link_sessions SET revoked_at = ? WHERE profile_id = ? AND revoked_at IS NULL', [now, profileId]);
  }

  /** Removes every account of the profile; returns them, to be reported as unlinked. */
  async removeLinkedAccountsOfProfile(tx: SqlExecutor, profileId: string): Promise<RemovedAccount[]> {
    return (await tx.all('DELETE FROM social_accounts WHERE profile_id = ? RETURNING platform, display_name, linked_at', [
      profileId,
    ])) as unknown as RemovedAccount[];
  }
}
