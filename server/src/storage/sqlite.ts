/**
 * @module
 * The embedded storage backend: one SQLite file (better-sqlite3), WAL journal, synchronous=FULL so a
 * committed link survives a crash. better-sqlite3 is synchronous; the async interface wraps it.
 */
import Database from 'better-sqlite3';
import type { Network } from '../../../src/protocol/index.js';
import { newSocialEvent, type SocialEventKind } from '../webhooks/social-event.js';
import {
  inLinkOrder,
  integrationKeyValues,
  toAccount,
  toIntegrationKey,
  toOAuthAttempt,
  toProfile,
  toSession,
  toSocialAccount,
  toWebhook,
  type RemovedAccount,
  type Row,
} from './rows.js';
import { SQLITE_MIGRATIONS } from './sqlite-migrations.js';
import type {
  Account,
  IntegrationKey,
  LinkAccountResult,
  LinkSessionRecord,
  NewLinkSession,
  OAuthAttempt,
  TelegramCode,
  Profile,
  SocialAccount,
  Storage,
  WebhookDelivery,
  WebhookDeliveryOutcome,
  WebhookDeliveryStatus,
  WebhookRegistration,
} from './types.js';

const SESSION_SELECT = `
  SELECT s.*,
    (SELECT json_group_array(platform) FROM
      (SELECT platform FROM link_session_completions c WHERE c.session_id = s.id ORDER BY first_completed_at, platform)
    ) AS completed_networks,
    (SELECT MIN(first_completed_at) FROM link_session_completions c WHERE c.session_id = s.id) AS completed_at,
    (SELECT MAX(last_completed_at) FROM link_session_completions c WHERE c.session_id = s.id) AS last_completed_at
  FROM link_sessions s`;

export class SqliteStorage implements Storage {
  readonly kind = 'sqlite';
  readonly #db: Database.Database;

  constructor(filename: string) {
    this.#db = new Database(filename);
    this.#db.pragma('journal_mode = WAL');
    this.#db.pragma('synchronous = FULL');
    this.#db.pragma('foreign_keys = ON');
    this.#db.pragma('busy_timeout = 5000');
  }

  async migrate(): Promise<void> {
    this.#db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)');
    const applied = new Set(
      this.#db.prepare('SELECT version FROM schema_migrations').all().map((row) => (row as Row).version as number),
    );
    SQLITE_MIGRATIONS.forEach((sql, index) => {
      const version = index + 1;
      if (applied.has(version)) return;
      this.#db.transaction(() => {
        this.#db.exec(sql);
        this.#db.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)').run(version, Date.now());
      }).immediate();
    });
  }

  async close(): Promise<void> {
    this.#db.close();
  }

  async countAccounts(): Promise<number> {
    return (this.#db.prepare('SELECT COUNT(*) AS n FROM accounts').get() as { n: number }).n;
  }

  async createAccount(account: Account, primaryProfile: Profile): Promise<void> {
    this.#db.transaction(() => {
      this.#db
        .prepare(
          `INSERT INTO accounts (id, name, plan, max_pack, domains, allowed_origins, instagram_link_method, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          account.id,
          account.name,
          account.plan,
          account.maxPack ? 1 : 0,
          JSON.stringify(account.domains),
          JSON.stringify(account.allowedOrigins),
          account.instagramLinkMethod,
          account.createdAt,
        );
      this.#insertProfile(primaryProfile, null);
    })();
  }

  async updateAccount(id: string, changes: Partial<Omit<Account, 'id' | 'createdAt'>>): Promise<void> {
    const columns: Record<string, unknown> = {};
    if (changes.name !== undefined) columns.name = changes.name;
    if (changes.plan !== undefined) columns.plan = changes.plan;
    if (changes.maxPack !== undefined) columns.max_pack = changes.maxPack ? 1 : 0;
    if (changes.domains !== undefined) columns.domains = JSON.stringify(changes.domains);
    if (changes.allowedOrigins !== undefined) columns.allowed_origins = JSON.stringify(changes.allowedOrigins);
    if (changes.instagramLinkMethod !== undefined) columns.instagram_link_method = changes.instagramLinkMethod;
    const names = Object.keys(columns);
    if (names.length === 0) return;
    const assignments = names.map((name) => `${name} = @${name}`).join(', ');
    this.#db.prepare(`UPDATE accounts SET ${assignments} WHERE id = @id`).run({ ...columns, id });
  }

  async addApiKey(accountId: string, keyHash: string, createdAt: number): Promise<void> {
    this.#db.prepare('INSERT INTO api_keys (key_hash, account_id, created_at) VALUES (?, ?, ?)').run(keyHash, accountId, createdAt);
  }

  async findAccountByApiKeyHash(keyHash: string): Promise<Account | null> {
    const row = this.#db
      .prepare('SELECT a.* FROM accounts a JOIN api_keys k ON k.account_id = a.id WHERE k.key_hash = ?')
      .get(keyHash) as Row | undefined;
    return row ? toAccount(row) : null;
  }

  async findAccount(id: string): Promise<Account | null> {
    const row = this.#db.prepare('SELECT * FROM accounts WHERE id = ?').get(id) as Row | undefined;
    return row ? toAccount(row) : null;
  }

  async createProfile(profile: Profile, profileKeyHash: string): Promise<void> {
    this.#insertProfile(profile, profileKeyHash);
  }

  #insertProfile(profile: Profile, profileKeyHash: string | null): void {
    this.#db
      .prepare(
        `INSERT INTO profiles (id, account_id, ref_id, title, is_primary, profile_key_hash, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(profile.id, profile.accountId, profile.refId, profile.title, profile.isPrimary ? 1 : 0, profileKeyHash, profile.createdAt);
  }

  async findPrimaryProfile(accountId: string): Promise<Profile | null> {
    const row = this.#db
      .prepare('SELECT * FROM profiles WHERE account_id = ? AND is_primary = 1 AND deleted_at IS NULL')
      .get(accountId) as Row | undefined;
    return row ? toProfile(row) : null;
  }

  async findProfileByKeyHash(accountId: string, profileKeyHash: string): Promise<Profile | null> {
    const row = this.#db
      .prepare('SELECT * FROM profiles WHERE account_id = ? AND profile_key_hash = ? AND deleted_at IS NULL')
      .get(accountId, profileKeyHash) as Row | undefined;
    return row ? toProfile(row) : null;
  }

  async findProfileById(id: string): Promise<Profile | null> {
    const row = this.#db.prepare('SELECT * FROM profiles WHERE id = ? AND deleted_at IS NULL').get(id) as Row | undefined;
    return row ? toProfile(row) : null;
  }

  async findProfileByRefId(refId: string): Promise<Profile | null> {
    const row = this.#db.prepare('SELECT * FROM profiles WHERE ref_id = ? AND deleted_at IS NULL').get(refId) as Row | undefined;
    return row ? toProfile(row) : null;
  }

  async listProfiles(accountId: string): Promise<Profile[]> {
    return this.#db
      .prepare('SELECT * FROM profiles WHERE account_id = ? AND is_primary = 0 AND deleted_at IS NULL ORDER BY created_at, id')
      .all(accountId)
      .map((row) => toProfile(row as Row));
  }

  async deleteProfile(id: string, now: number): Promise<void> {
    this.#db.transaction(() => {
      this.#db.prepare('UPDATE profiles SET deleted_at = ?, profile_key_hash = NULL WHERE id = ?').run(now, id);
      this.#db.prepare('UPDATE link_sessions SET revoked_at = ? WHERE profile_id = ? AND revoked_at IS NULL').run(now, id);
      const removed = this.#db
        .prepare('DELETE FROM social_accounts WHERE profile_id = ? RETURNING platform, display_name, linked_at')
        .all(id) as RemovedAccount[];
      // Each removed account is reported as if it had been unlinked through the API.
      for (const account of inLinkOrder(removed)) this.#enqueueSocialEvent(id, 'unlink', account.platform, account.display_name, now);
    }).immediate();
  }

  async createLinkSession(session: NewLinkSession): Promise<void> {
    this.#insertLinkSession(session, 'session');
  }

  /** `legacy` rows stand in for verified JWT links; a second insert for the same token is a no-op. */
  #insertLinkSession(session: NewLinkSession, kind: 'session' | 'legacy'): void {
    this.#db
      .prepare(
        `INSERT INTO link_sessions (id, token_hash, account_id, profile_id, origin, redirect, domain, allowed_social,
           instagram_link_method, created_at, expires_at, kind)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ${kind === 'legacy' ? 'ON CONFLICT (token_hash) DO NOTHING' : ''}`,
      )
      .run(
        session.id,
        session.tokenHash,
        session.accountId,
        session.profileId,
        session.origin,
        session.redirect,
        session.domain,
        session.allowedSocial ? JSON.stringify(session.allowedSocial) : null,
        session.instagramLinkMethod,
        session.createdAt,
        session.expiresAt,
        kind,
      );
  }

  async findLinkSessionByTokenHash(tokenHash: string): Promise<LinkSessionRecord | null> {
    const row = this.#db.prepare(`${SESSION_SELECT} WHERE s.token_hash = ?`).get(tokenHash) as Row | undefined;
    return row ? toSession(row) : null;
  }

  async findLinkSession(accountId: string, sessionId: string): Promise<LinkSessionRecord | null> {
    const row = this.#db.prepare(`${SESSION_SELECT} WHERE s.account_id = ? AND s.id = ? AND s.kind = 'session'`).get(accountId, sessionId) as
      | Row
      | undefined;
    return row ? toSession(row) : null;
  }

  async findLinkSessionById(sessionId: string): Promise<LinkSessionRecord | null> {
    const row = this.#db.prepare(`${SESSION_SELECT} WHERE s.id = ?`).get(sessionId) as Row | undefined;
    return row ? toSession(row) : null;
  }

  async revokeLinkSession(accountId: string, sessionId: string, now: number): Promise<LinkSessionRecord | null> {
    this.#db
      .prepare("UPDATE link_sessions SET revoked_at = ? WHERE account_id = ? AND id = ? AND revoked_at IS NULL AND kind = 'session'")
      .run(now, accountId, sessionId);
    return this.findLinkSession(accountId, sessionId);
  }

  async linkAccount(sessionId: string, account: SocialAccount, now: number): Promise<LinkAccountResult> {
    return this.#db.transaction((): LinkAccountResult => {
      const session = this.#db
        .prepare('SELECT expires_at, revoked_at FROM link_sessions WHERE id = ?')
        .get(sessionId) as { expires_at: number; revoked_at: number | null } | undefined;
      if (!session) return { stored: false, reason: 'missing' };
      if (session.revoked_at !== null) return { stored: false, reason: 'revoked' };
      if (session.expires_at <= now) return { stored: false, reason: 'expired' };
      this.#db
        .prepare(
          `INSERT INTO social_accounts (profile_id, platform, network_user_id, display_name, username, tokens_encrypted, linked_at)
           VALUES (@profileId, @platform, @networkUserId, @displayName, @username, @tokensEncrypted, @linkedAt)
           ON CONFLICT (profile_id, platform) DO UPDATE SET network_user_id = excluded.network_user_id,
             display_name = excluded.display_name, username = excluded.username,
             tokens_encrypted = excluded.tokens_encrypted, linked_at = excluded.linked_at`,
        )
        .run(account);
      this.#db
        .prepare(
          `INSERT INTO link_session_completions (session_id, platform, first_completed_at, last_completed_at)
           VALUES (?, ?, ?, ?)
           ON CONFLICT (session_id, platform) DO UPDATE SET last_completed_at = excluded.last_completed_at`,
        )
        .run(sessionId, account.platform, now, now);
      this.#enqueueSocialEvent(account.profileId, 'link', account.platform, account.displayName, now);
      return { stored: true, account };
    }).immediate();
  }

  async listSocialAccounts(profileId: string): Promise<SocialAccount[]> {
    return this.#db
      .prepare('SELECT * FROM social_accounts WHERE profile_id = ? ORDER BY linked_at, platform')
      .all(profileId)
      .map((row) => toSocialAccount(row as Row));
  }

  async findSocialAccount(profileId: string, platform: Network): Promise<SocialAccount | null> {
    const row = this.#db.prepare('SELECT * FROM social_accounts WHERE profile_id = ? AND platform = ?').get(profileId, platform) as
      | Row
      | undefined;
    return row ? toSocialAccount(row) : null;
  }

  async unlinkAccount(profileId: string, platform: Network, now: number): Promise<boolean> {
    return this.#db.transaction((): boolean => {
      const removed = this.#db
        .prepare('DELETE FROM social_accounts WHERE profile_id = ? AND platform = ? RETURNING display_name')
        .get(profileId, platform) as { display_name: string | null } | undefined;
      if (!removed) return false;
      this.#enqueueSocialEvent(profileId, 'unlink', platform, removed.display_name, now);
      return true;
    }).immediate();
  }

  /** Called inside the transaction of the change it reports, so both commit or neither does. */
  #enqueueSocialEvent(profileId: string, event: SocialEventKind, platform: Network, displayName: string | null, now: number): void {
    const profile = this.#db
      .prepare(
        `SELECT p.ref_id, p.title FROM webhooks w JOIN profiles p ON p.id = w.profile_id
         WHERE w.profile_id = ? AND w.action = 'social'`,
      )
      .get(profileId) as { ref_id: string; title: string } | undefined;
    if (!profile) return;
    const payload = newSocialEvent({ event, platform, refId: profile.ref_id, title: profile.title, displayName, at: now });
    // next_attempt_at 0: due at once, whichever clock the delivery worker runs on.
    this.#db
      .prepare(
        `INSERT INTO webhook_outbox (id, profile_id, action, payload, created_at, next_attempt_at)
         VALUES (?, ?, 'social', ?, ?, 0)`,
      )
      .run(payload.id, profileId, JSON.stringify(payload), now);
  }

  async createOAuthAttempt(attempt: OAuthAttempt): Promise<void> {
    this.#db
      .prepare(
        `INSERT INTO oauth_attempts (state_hash, ticket_hash, session_id, platform, code_verifier, binding_hash, created_at, expires_at, started_at, used_at, outcome)
         VALUES (@stateHash, @ticketHash, @sessionId, @platform, @codeVerifier, @bindingHash, @createdAt, @expiresAt, @startedAt, @usedAt, @outcome)`,
      )
      .run(attempt);
  }

  async startOAuthAttempt(ticketHash: string, binding: { bindingHash: string; stateHash: string }, now: number): Promise<OAuthAttempt | null> {
    const row = this.#db
      .prepare(
        `UPDATE oauth_attempts SET started_at = ?, binding_hash = ?, state_hash = ?
         WHERE ticket_hash = ? AND started_at IS NULL AND expires_at > ? RETURNING *`,
      )
      .get(now, binding.bindingHash, binding.stateHash, ticketHash, now) as Row | undefined;
    return row ? toOAuthAttempt(row) : null;
  }

  async useOAuthAttempt(stateHash: string, now: number): Promise<OAuthAttempt | null> {
    const row = this.#db
      .prepare(
        `UPDATE oauth_attempts SET used_at = ?
         WHERE state_hash = ? AND used_at IS NULL AND started_at IS NOT NULL AND expires_at > ? RETURNING *`,
      )
      .get(now, stateHash, now) as Row | undefined;
    return row ? toOAuthAttempt(row) : null;
  }

  async findOAuthAttempt(stateHash: string): Promise<OAuthAttempt | null> {
    const row = this.#db.prepare('SELECT * FROM oauth_attempts WHERE state_hash = ?').get(stateHash) as Row | undefined;
    return row ? toOAuthAttempt(row) : null;
  }

  async recordOAuthOutcome(stateHash: string, outcome: string): Promise<void> {
    this.#db.prepare('UPDATE oauth_attempts SET outcome = ? WHERE state_hash = ?').run(outcome, stateHash);
  }

  async createTelegramCode(code: TelegramCode): Promise<void> {
    this.#db
      .prepare('INSERT INTO telegram_codes (code_hash, session_id, created_at, expires_at, used_at) VALUES (?, ?, ?, ?, ?)')
      .run(code.codeHash, code.sessionId, code.createdAt, code.expiresAt, code.usedAt);
  }

  async useTelegramCode(codeHash: string, now: number): Promise<TelegramCode | null> {
    const row = this.#db
      .prepare('UPDATE telegram_codes SET used_at = ? WHERE code_hash = ? AND used_at IS NULL AND expires_at > ? RETURNING *')
      .get(now, codeHash, now) as Row | undefined;
    return row
      ? {
          codeHash: row.code_hash as string,
          sessionId: row.session_id as string,
          createdAt: row.created_at as number,
          expiresAt: row.expires_at as number,
          usedAt: row.used_at as number,
        }
      : null;
  }

  async putWebhook(registration: WebhookRegistration): Promise<void> {
    this.#db
      .prepare(
        `INSERT INTO webhooks (profile_id, action, url, secret, created_at) VALUES (@profileId, @action, @url, @secret, @createdAt)
         ON CONFLICT (profile_id, action) DO UPDATE SET url = excluded.url, secret = excluded.secret, created_at = excluded.created_at`,
      )
      .run(registration);
  }

  async listWebhooks(profileId: string): Promise<WebhookRegistration[]> {
    return this.#db
      .prepare('SELECT * FROM webhooks WHERE profile_id = ? ORDER BY action')
      .all(profileId)
      .map((row) => toWebhook(row as Row));
  }

  async deleteWebhook(profileId: string, action: string): Promise<boolean> {
    return this.#db.prepare('DELETE FROM webhooks WHERE profile_id = ? AND action = ?').run(profileId, action).changes > 0;
  }

  async claimWebhookDeliveries(now: number, leaseUntil: number, limit: number): Promise<WebhookDelivery[]> {
    return this.#db.transaction((): WebhookDelivery[] => {
      const rows = this.#db
        .prepare(
          `SELECT o.id, o.profile_id, o.action, o.payload, o.attempts, o.created_at, w.url, w.secret
           FROM webhook_outbox o LEFT JOIN webhooks w ON w.profile_id = o.profile_id AND w.action = o.action
           WHERE o.delivered_at IS NULL AND o.failed_at IS NULL AND o.next_attempt_at <= ?
             AND (o.claimed_until IS NULL OR o.claimed_until <= ?)
           ORDER BY o.next_attempt_at, o.created_at, o.rowid LIMIT ?`,
        )
        .all(now, now, limit) as Row[];
      const claimed: WebhookDelivery[] = [];
      for (const row of rows) {
        if (row.url === null) {
          this.#db
            .prepare("UPDATE webhook_outbox SET failed_at = ?, last_error = 'webhook unregistered' WHERE id = ?")
            .run(now, row.id);
          continue;
        }
        this.#db.prepare('UPDATE webhook_outbox SET claimed_until = ?, attempts = attempts + 1 WHERE id = ?').run(leaseUntil, row.id);
        claimed.push({
          id: row.id as string,
          profileId: row.profile_id as string,
          action: row.action as string,
          payload: row.payload as string,
          url: row.url as string,
          secret: (row.secret as string | null) ?? null,
          attempts: (row.attempts as number) + 1,
          createdAt: row.created_at as number,
        });
      }
      return claimed;
    }).immediate();
  }

  async finishWebhookDelivery(id: string, outcome: WebhookDeliveryOutcome): Promise<void> {
    if (outcome.kind === 'delivered') {
      this.#db.prepare('UPDATE webhook_outbox SET delivered_at = ?, claimed_until = NULL, last_error = NULL WHERE id = ?').run(outcome.at, id);
    } else if (outcome.kind === 'retry') {
      this.#db
        .prepare('UPDATE webhook_outbox SET next_attempt_at = ?, claimed_until = NULL, last_error = ? WHERE id = ?')
        .run(outcome.nextAttemptAt, outcome.error, id);
    } else {
      this.#db.prepare('UPDATE webhook_outbox SET failed_at = ?, claimed_until = NULL, last_error = ? WHERE id = ?').run(outcome.at, outcome.error, id);
    }
  }

  async listWebhookDeliveries(profileId: string): Promise<WebhookDeliveryStatus[]> {
    return this.#db
      .prepare('SELECT * FROM webhook_outbox WHERE profile_id = ? ORDER BY created_at, rowid')
      .all(profileId)
      .map((row) => {
        const r = row as Row;
        return {
          id: r.id as string,
          action: r.action as string,
          payload: r.payload as string,
          attempts: r.attempts as number,
          nextAttemptAt: r.next_attempt_at as number,
          deliveredAt: (r.delivered_at as number | null) ?? null,
          failedAt: (r.failed_at as number | null) ?? null,
          lastError: (r.last_error as string | null) ?? null,
        };
      });
  }

  async pruneWebhookOutbox(finishedBefore: number): Promise<number> {
    // Pending rows have neither time, so COALESCE is NULL and they never match.
    return this.#db.prepare('DELETE FROM webhook_outbox WHERE COALESCE(delivered_at, failed_at) < ?').run(finishedBefore).changes;
  }

  async findOrCreateLegacyLinkSession(session: NewLinkSession): Promise<LinkSessionRecord> {
    this.#insertLinkSession(session, 'legacy');
    const row = this.#db.prepare(`${SESSION_SELECT} WHERE s.token_hash = ? AND s.kind = 'legacy'`).get(session.tokenHash) as Row | undefined;
    if (!row) throw new Error('legacy link session row missing after insert');
    return toSession(row);
  }

  async findIntegrationKey(accountId: string, kind: IntegrationKey['kind']): Promise<IntegrationKey | null> {
    const row = this.#db.prepare('SELECT * FROM integration_keys WHERE account_id = ? AND kind = ?').get(accountId, kind) as
      | Row
      | undefined;
    return row ? toIntegrationKey(row) : null;
  }

  async putIntegrationKey(key: IntegrationKey): Promise<void> {
    this.#db
      .prepare(
        `INSERT INTO integration_keys (account_id, kind, algorithm, public_jwk, private_jwk, created_at) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (account_id, kind) DO UPDATE SET algorithm = excluded.algorithm, public_jwk = excluded.public_jwk,
           private_jwk = excluded.private_jwk, created_at = excluded.created_at`,
      )
      .run(...integrationKeyValues(key));
  }

  async addIntegrationKeyIfMissing(key: IntegrationKey): Promise<IntegrationKey> {
    this.#db
      .prepare(
        `INSERT INTO integration_keys (account_id, kind, algorithm, public_jwk, private_jwk, created_at) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (account_id, kind) DO NOTHING`,
      )
      .run(...integrationKeyValues(key));
    return (await this.findIntegrationKey(key.accountId, key.kind))!;
  }

  async resetIntegrationKeys(accountId: string, now: number): Promise<void> {
    this.#db.transaction(() => {
      this.#db.prepare('DELETE FROM integration_keys WHERE account_id = ?').run(accountId);
      this.#db
        .prepare("UPDATE link_sessions SET revoked_at = ? WHERE account_id = ? AND kind = 'legacy' AND revoked_at IS NULL")
        .run(now, accountId);
    }).immediate();
  }
}
