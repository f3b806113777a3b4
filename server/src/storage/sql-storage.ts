/**
 * @module
 * The one implementation of `Storage`, over a driver per database (sqlite-driver.ts, postgres-driver.ts). Each query
 * is written once; what a database spells differently comes from its dialect (sql-dialect.ts). Semantics:
 * completions are rows (concurrent completions cannot overwrite each other), linkAccount re-checks expiry and
 * revocation inside its transaction (on PostgreSQL holding the session row), one-time values are spent with a single
 * UPDATE … RETURNING, and outbox rows are claimed in one transaction (PostgreSQL: FOR UPDATE SKIP LOCKED).
 */
import type { Network } from '../../../src/protocol/index.js';
import { newSocialEvent, type SocialEventKind } from '../webhooks/social-event.js';
import { applyMigrations } from './migrate.js';
import {
  inLinkOrder,
  integrationKeyValues,
  toAccount,
  toClaimedDelivery,
  toDeliveryStatus,
  toIntegrationKey,
  toOAuthAttempt,
  toProfile,
  toSession,
  toSocialAccount,
  toTelegramCode,
  toWebhook,
  type RemovedAccount,
} from './rows.js';
import type { SqlDialect } from './sql-dialect.js';
import type { SqlDriver, SqlExecutor } from './sql-driver.js';
import type {
  Account,
  IntegrationKey,
  LinkAccountResult,
  LinkSessionRecord,
  NewLinkSession,
  OAuthAttempt,
  Profile,
  SocialAccount,
  Storage,
  TelegramCode,
  WebhookDelivery,
  WebhookDeliveryOutcome,
  WebhookDeliveryStatus,
  WebhookRegistration,
} from './types.js';

/** A session row with what its completions add: the networks in completion order, the first and last time. */
function sessionSelect(dialect: SqlDialect): string {
  return `
  SELECT s.*,
    COALESCE((SELECT ${dialect.jsonArrayOf('c.platform ORDER BY c.first_completed_at, c.platform')}
      FROM link_session_completions c WHERE c.session_id = s.id), '[]') AS completed_networks,
    (SELECT MIN(first_completed_at) FROM link_session_completions c WHERE c.session_id = s.id) AS completed_at,
    (SELECT MAX(last_completed_at) FROM link_session_completions c WHERE c.session_id = s.id) AS last_completed_at
  FROM link_sessions s`;
}

const INSERT_INTEGRATION_KEY = `INSERT INTO integration_keys (account_id, kind, algorithm, public_jwk, private_jwk, created_at)
  VALUES (?, ?, ?, ?, ?, ?)`;

export class SqlStorage implements Storage {
  readonly kind: SqlDriver['kind'];
  protected readonly db: SqlDriver;
  readonly #dialect: SqlDialect;
  readonly #sessionSelect: string;

  constructor(driver: SqlDriver) {
    this.db = driver;
    this.kind = driver.kind;
    this.#dialect = driver.dialect;
    this.#sessionSelect = sessionSelect(driver.dialect);
  }

  /** The driver itself, for feature stores with their own tables (publishing/store.ts, core/jobs). */
  get sqlDriver(): SqlDriver {
    return this.db;
  }

  async migrate(): Promise<void> {
    await this.db.whileMigrating((connection) => applyMigrations(connection, this.#dialect));
  }

  async close(): Promise<void> {
    await this.db.close();
  }

  async countAccounts(): Promise<number> {
    return Number((await this.db.get('SELECT COUNT(*) AS n FROM accounts'))!.n);
  }

  async createAccount(account: Account, primaryProfile: Profile): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.run(
        `INSERT INTO accounts (id, name, plan, max_pack, domains, allowed_origins, instagram_link_method, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          account.id,
          account.name,
          account.plan,
          account.maxPack ? 1 : 0,
          JSON.stringify(account.domains),
          JSON.stringify(account.allowedOrigins),
          account.instagramLinkMethod,
          account.createdAt,
        ],
      );
      await this.#insertProfile(tx, primaryProfile, null);
    });
  }

  async updateAccount(id: string, changes: Partial<Omit<Account, 'id' | 'createdAt'>>): Promise<void> {
    const columns: [string, unknown][] = [];
    if (changes.name !== undefined) columns.push(['name', changes.name]);
    if (changes.plan !== undefined) columns.push(['plan', changes.plan]);
    if (changes.maxPack !== undefined) columns.push(['max_pack', changes.maxPack ? 1 : 0]);
    if (changes.domains !== undefined) columns.push(['domains', JSON.stringify(changes.domains)]);
    if (changes.allowedOrigins !== undefined) columns.push(['allowed_origins', JSON.stringify(changes.allowedOrigins)]);
    if (changes.instagramLinkMethod !== undefined) columns.push(['instagram_link_method', changes.instagramLinkMethod]);
    if (columns.length === 0) return;
    const assignments = columns.map(([name]) => `${name} = ?`).join(', ');
    await this.db.transaction(async (tx) => {
      const planBefore = changes.plan !== undefined ? (await tx.get('SELECT plan FROM accounts WHERE id = ?', [id]))?.plan : undefined;
      await tx.run(`UPDATE accounts SET ${assignments} WHERE id = ?`, [...columns.map(([, value]) => value), id]);
      // Spec 7 (106): a plan change resets the Primary Profile's monthly post count.
      if (planBefore !== undefined && planBefore !== changes.plan) {
        await tx.run('DELETE FROM post_counts WHERE profile_id IN (SELECT id FROM profiles WHERE account_id = ? AND is_primary = 1)', [id]);
      }
    });
  }

  async addApiKey(accountId: string, keyHash: string, createdAt: number): Promise<void> {
    await this.db.run('INSERT INTO api_keys (key_hash, account_id, created_at) VALUES (?, ?, ?)', [keyHash, accountId, createdAt]);
  }

  async findAccountByApiKeyHash(keyHash: string): Promise<Account | null> {
    const row = await this.db.get('SELECT a.* FROM accounts a JOIN api_keys k ON k.account_id = a.id WHERE k.key_hash = ?', [keyHash]);
    return row ? toAccount(row) : null;
  }

  async findAccount(id: string): Promise<Account | null> {
    const row = await this.db.get('SELECT * FROM accounts WHERE id = ?', [id]);
    return row ? toAccount(row) : null;
  }

  async createProfile(profile: Profile, profileKeyHash: string): Promise<void> {
    await this.#insertProfile(this.db, profile, profileKeyHash);
  }

  async #insertProfile(db: SqlExecutor, profile: Profile, profileKeyHash: string | null): Promise<void> {
    await db.run(
      `INSERT INTO profiles (id, account_id, ref_id, title, is_primary, profile_key_hash, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
      [profile.id, profile.accountId, profile.refId, profile.title, profile.isPrimary ? 1 : 0, profileKeyHash, profile.createdAt],
    );
  }

  async findPrimaryProfile(accountId: string): Promise<Profile | null> {
    const row = await this.db.get('SELECT * FROM profiles WHERE account_id = ? AND is_primary = 1 AND deleted_at IS NULL', [accountId]);
    return row ? toProfile(row) : null;
  }

  async findProfileByKeyHash(accountId: string, profileKeyHash: string): Promise<Profile | null> {
    const row = await this.db.get('SELECT * FROM profiles WHERE account_id = ? AND profile_key_hash = ? AND deleted_at IS NULL', [
      accountId,
      profileKeyHash,
    ]);
    return row ? toProfile(row) : null;
  }

  async findProfileById(id: string): Promise<Profile | null> {
    const row = await this.db.get('SELECT * FROM profiles WHERE id = ? AND deleted_at IS NULL', [id]);
    return row ? toProfile(row) : null;
  }

  async findProfileByRefId(refId: string): Promise<Profile | null> {
    const row = await this.db.get('SELECT * FROM profiles WHERE ref_id = ? AND deleted_at IS NULL', [refId]);
    return row ? toProfile(row) : null;
  }

  async listProfiles(accountId: string): Promise<Profile[]> {
    const rows = await this.db.all(
      'SELECT * FROM profiles WHERE account_id = ? AND is_primary = 0 AND deleted_at IS NULL ORDER BY created_at, id',
      [accountId],
    );
    return rows.map(toProfile);
  }

  async deleteProfile(id: string, now: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      // Revoking first waits (PostgreSQL) for a link committing on one of the sessions (it holds the session row),
      // so the DELETE below sees that account too and reports it; later links find the session revoked.
      await tx.run('UPDATE link_sessions SET revoked_at = ? WHERE profile_id = ? AND revoked_at IS NULL', [now, id]);
      const removed = (await tx.all('DELETE FROM social_accounts WHERE profile_id = ? RETURNING platform, display_name, linked_at', [
        id,
      ])) as unknown as RemovedAccount[];
      // Each removed account is reported as if it had been unlinked through the API.
      for (const account of inLinkOrder(removed)) {
        await this.#enqueueSocialEvent(tx, id, 'unlink', account.platform, account.display_name, now);
      }
      // Last: updating the profile row (its unique key column) locks it against the foreign-key checks of a link
      // or unlink still committing; taken earlier, that link would wait on us while we wait on it (deadlock).
      await tx.run('UPDATE profiles SET deleted_at = ?, profile_key_hash = NULL WHERE id = ?', [now, id]);
    });
  }

  async createLinkSession(session: NewLinkSession): Promise<void> {
    await this.#insertLinkSession(session, 'session');
  }

  /** `legacy` rows stand in for verified JWT links; a second insert for the same token is a no-op. */
  async #insertLinkSession(session: NewLinkSession, kind: 'session' | 'legacy'): Promise<void> {
    await this.db.run(
      `INSERT INTO link_sessions (id, token_hash, account_id, profile_id, origin, redirect, domain, allowed_social,
         instagram_link_method, created_at, expires_at, kind)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
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
        session.createdAt,
        session.expiresAt,
        kind,
      ],
    );
  }

  async findLinkSessionByTokenHash(tokenHash: string): Promise<LinkSessionRecord | null> {
    const row = await this.db.get(`${this.#sessionSelect} WHERE s.token_hash = ?`, [tokenHash]);
    return row ? toSession(row) : null;
  }

  async findLinkSession(accountId: string, sessionId: string): Promise<LinkSessionRecord | null> {
    const row = await this.db.get(`${this.#sessionSelect} WHERE s.account_id = ? AND s.id = ? AND s.kind = 'session'`, [accountId, sessionId]);
    return row ? toSession(row) : null;
  }

  async findLinkSessionById(sessionId: string): Promise<LinkSessionRecord | null> {
    const row = await this.db.get(`${this.#sessionSelect} WHERE s.id = ?`, [sessionId]);
    return row ? toSession(row) : null;
  }

  async revokeLinkSession(accountId: string, sessionId: string, now: number): Promise<LinkSessionRecord | null> {
    await this.db.run("UPDATE link_sessions SET revoked_at = ? WHERE account_id = ? AND id = ? AND revoked_at IS NULL AND kind = 'session'", [
      now,
      accountId,
      sessionId,
    ]);
    return this.findLinkSession(accountId, sessionId);
  }

  async linkAccount(sessionId: string, account: SocialAccount, now: number): Promise<LinkAccountResult> {
    return this.db.transaction(async (tx): Promise<LinkAccountResult> => {
      // On PostgreSQL the row lock orders this commit against a concurrent revoke of the same session.
      const session = await tx.get(`SELECT expires_at, revoked_at FROM link_sessions WHERE id = ?${this.#dialect.forUpdate}`, [sessionId]);
      if (!session) return { stored: false, reason: 'missing' };
      if (session.revoked_at !== null) return { stored: false, reason: 'revoked' };
      if ((session.expires_at as number) <= now) return { stored: false, reason: 'expired' };
      await tx.run(
        `INSERT INTO social_accounts (profile_id, platform, network_user_id, display_name, username, tokens_encrypted, linked_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (profile_id, platform) DO UPDATE SET network_user_id = excluded.network_user_id,
           display_name = excluded.display_name, username = excluded.username,
           tokens_encrypted = excluded.tokens_encrypted, linked_at = excluded.linked_at`,
        [account.profileId, account.platform, account.networkUserId, account.displayName, account.username, account.tokensEncrypted, account.linkedAt],
      );
      await tx.run(
        `INSERT INTO link_session_completions (session_id, platform, first_completed_at, last_completed_at)
         VALUES (?, ?, ?, ?)
         ON CONFLICT (session_id, platform) DO UPDATE SET last_completed_at = excluded.last_completed_at`,
        [sessionId, account.platform, now, now],
      );
      await this.#enqueueSocialEvent(tx, account.profileId, 'link', account.platform, account.displayName, now);
      return { stored: true, account };
    });
  }

  async listSocialAccounts(profileId: string): Promise<SocialAccount[]> {
    return (await this.db.all('SELECT * FROM social_accounts WHERE profile_id = ? ORDER BY linked_at, platform', [profileId])).map(toSocialAccount);
  }

  async findSocialAccount(profileId: string, platform: Network): Promise<SocialAccount | null> {
    const row = await this.db.get('SELECT * FROM social_accounts WHERE profile_id = ? AND platform = ?', [profileId, platform]);
    return row ? toSocialAccount(row) : null;
  }

  async unlinkAccount(profileId: string, platform: Network, now: number): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const removed = await tx.get('DELETE FROM social_accounts WHERE profile_id = ? AND platform = ? RETURNING display_name', [
        profileId,
        platform,
      ]);
      if (!removed) return false;
      await this.#enqueueSocialEvent(tx, profileId, 'unlink', platform, (removed.display_name as string | null) ?? null, now);
      return true;
    });
  }

  /** Called inside the transaction of the change it reports, so both commit or neither does. */
  async #enqueueSocialEvent(tx: SqlExecutor, profileId: string, event: SocialEventKind, platform: Network, displayName: string | null, now: number) {
    const profile = await tx.get(
      `SELECT p.ref_id, p.title FROM webhooks w JOIN profiles p ON p.id = w.profile_id
       WHERE w.profile_id = ? AND w.action = 'social'`,
      [profileId],
    );
    if (!profile) return;
    const payload = newSocialEvent({ event, platform, refId: profile.ref_id as string, title: profile.title as string, displayName, at: now });
    // next_attempt_at 0: due at once, whichever clock the delivery worker runs on.
    await tx.run(
      `INSERT INTO webhook_outbox (id, profile_id, action, payload, created_at, next_attempt_at)
       VALUES (?, ?, 'social', ?, ?, 0)`,
      [payload.id, profileId, JSON.stringify(payload), now],
    );
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

  async putWebhook(registration: WebhookRegistration): Promise<void> {
    await this.db.run(
      `INSERT INTO webhooks (profile_id, action, url, secret, created_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (profile_id, action) DO UPDATE SET url = excluded.url, secret = excluded.secret, created_at = excluded.created_at`,
      [registration.profileId, registration.action, registration.url, registration.sealedSecret, registration.createdAt],
    );
  }

  async listWebhooks(profileId: string): Promise<WebhookRegistration[]> {
    return (await this.db.all('SELECT * FROM webhooks WHERE profile_id = ? ORDER BY action', [profileId])).map(toWebhook);
  }

  async listWebhooksWithSecrets(): Promise<WebhookRegistration[]> {
    return (await this.db.all('SELECT * FROM webhooks WHERE secret IS NOT NULL ORDER BY profile_id, action')).map(toWebhook);
  }

  async replaceWebhookSecretIfUnchanged(profileId: string, action: string, from: string, to: string): Promise<boolean> {
    const changed = await this.db.run('UPDATE webhooks SET secret = ? WHERE profile_id = ? AND action = ? AND secret = ?', [to, profileId, action, from]);
    return changed > 0;
  }

  async deleteWebhook(profileId: string, action: string): Promise<boolean> {
    return (await this.db.run('DELETE FROM webhooks WHERE profile_id = ? AND action = ?', [profileId, action])) > 0;
  }

  async claimWebhookDeliveries(now: number, leaseUntil: number, limit: number): Promise<WebhookDelivery[]> {
    return this.db.transaction(async (tx) => {
      const rows = await tx.all(
        `SELECT o.id, o.profile_id, o.action, o.payload, o.attempts, o.created_at, w.url, w.secret
         FROM webhook_outbox o LEFT JOIN webhooks w ON w.profile_id = o.profile_id AND w.action = o.action
         WHERE o.delivered_at IS NULL AND o.failed_at IS NULL AND o.next_attempt_at <= ?
           AND (o.claimed_until IS NULL OR o.claimed_until <= ?)
         ORDER BY o.next_attempt_at, o.created_at, o.${this.#dialect.outboxInsertOrder} LIMIT ?${this.#dialect.forUpdateSkipLocked('o')}`,
        [now, now, limit],
      );
      const claimed: WebhookDelivery[] = [];
      for (const row of rows) {
        if (row.url === null) {
          await tx.run("UPDATE webhook_outbox SET failed_at = ?, last_error = 'webhook unregistered' WHERE id = ?", [now, row.id]);
          continue;
        }
        await tx.run('UPDATE webhook_outbox SET claimed_until = ?, attempts = attempts + 1 WHERE id = ?', [leaseUntil, row.id]);
        claimed.push(toClaimedDelivery(row));
      }
      return claimed;
    });
  }

  async finishWebhookDelivery(id: string, outcome: WebhookDeliveryOutcome): Promise<void> {
    if (outcome.kind === 'delivered') {
      await this.db.run('UPDATE webhook_outbox SET delivered_at = ?, claimed_until = NULL, last_error = NULL WHERE id = ?', [outcome.at, id]);
    } else if (outcome.kind === 'retry') {
      await this.db.run('UPDATE webhook_outbox SET next_attempt_at = ?, claimed_until = NULL, last_error = ? WHERE id = ?', [
        outcome.nextAttemptAt,
        outcome.error,
        id,
      ]);
    } else {
      await this.db.run('UPDATE webhook_outbox SET failed_at = ?, claimed_until = NULL, last_error = ? WHERE id = ?', [outcome.at, outcome.error, id]);
    }
  }

  async listWebhookDeliveries(profileId: string): Promise<WebhookDeliveryStatus[]> {
    const order = this.#dialect.outboxInsertOrder;
    return (await this.db.all(`SELECT * FROM webhook_outbox WHERE profile_id = ? ORDER BY created_at, ${order}`, [profileId])).map(toDeliveryStatus);
  }

  async pruneWebhookOutbox(finishedBefore: number): Promise<number> {
    // Pending rows have neither time, so COALESCE is NULL and they never match.
    return this.db.run('DELETE FROM webhook_outbox WHERE COALESCE(delivered_at, failed_at) < ?', [finishedBefore]);
  }

  async removeWebhooksOfDeletedProfiles(): Promise<number> {
    // A deleted profile keeps its registrations until its last events (the unlinks of its deletion) are done.
    return this.db.run(
      `DELETE FROM webhooks
       WHERE profile_id IN (SELECT id FROM profiles WHERE deleted_at IS NOT NULL)
         AND NOT EXISTS (SELECT 1 FROM webhook_outbox o
                         WHERE o.profile_id = webhooks.profile_id AND o.delivered_at IS NULL AND o.failed_at IS NULL)`,
    );
  }

  async findOrCreateLegacyLinkSession(session: NewLinkSession): Promise<LinkSessionRecord> {
    await this.#insertLinkSession(session, 'legacy');
    const row = await this.db.get(`${this.#sessionSelect} WHERE s.token_hash = ? AND s.kind = 'legacy'`, [session.tokenHash]);
    if (!row) throw new Error('legacy link session row missing after insert');
    return toSession(row);
  }

  async findIntegrationKey(accountId: string, kind: IntegrationKey['kind']): Promise<IntegrationKey | null> {
    const row = await this.db.get('SELECT * FROM integration_keys WHERE account_id = ? AND kind = ?', [accountId, kind]);
    return row ? toIntegrationKey(row) : null;
  }

  async putIntegrationKey(key: IntegrationKey): Promise<void> {
    await this.db.run(
      `${INSERT_INTEGRATION_KEY}
       ON CONFLICT (account_id, kind) DO UPDATE SET algorithm = excluded.algorithm, public_jwk = excluded.public_jwk,
         private_jwk = excluded.private_jwk, created_at = excluded.created_at`,
      integrationKeyValues(key),
    );
  }

  async addIntegrationKeyIfMissing(key: IntegrationKey): Promise<IntegrationKey> {
    await this.db.run(`${INSERT_INTEGRATION_KEY} ON CONFLICT (account_id, kind) DO NOTHING`, integrationKeyValues(key));
    return (await this.findIntegrationKey(key.accountId, key.kind))!;
  }

  async replaceIntegrationKeyIfUnchanged(key: IntegrationKey, sealedPrivateKeyNow: string | null): Promise<IntegrationKey | null> {
    // Compare-and-swap on the stored private value: of several callers replacing the same key, one wins and the
    // others get its key, so every token they sign verifies.
    await this.db.run(
      `UPDATE integration_keys SET algorithm = ?, public_jwk = ?, private_jwk = ?, created_at = ?
       WHERE account_id = ? AND kind = ? AND private_jwk IS NOT DISTINCT FROM ?`,
      [key.algorithm, JSON.stringify(key.publicJwk), key.sealedPrivateKey, key.createdAt, key.accountId, key.kind, sealedPrivateKeyNow],
    );
    return this.findIntegrationKey(key.accountId, key.kind);
  }

  async resetIntegrationKeys(accountId: string, now: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.run('DELETE FROM integration_keys WHERE account_id = ?', [accountId]);
      await tx.run("UPDATE link_sessions SET revoked_at = ? WHERE account_id = ? AND kind = 'legacy' AND revoked_at IS NULL", [now, accountId]);
    });
  }
}
