/**
 * @module
 * The PostgreSQL backend, for several service instances on one database (`DATABASE_URL`). Same semantics as
 * sqlite.ts, method by method: completions are rows (concurrent completions cannot overwrite each other),
 * linkAccount locks the session row and re-checks expiry and revocation inside its transaction, one-time values
 * are spent with a single UPDATE … RETURNING, and outbox rows are claimed with FOR UPDATE SKIP LOCKED.
 */
import pg from 'pg';
import type { Network } from '../../../src/protocol/index.js';
import { newSocialEvent, type SocialEventKind } from '../webhooks/social-event.js';
import { POSTGRES_MIGRATIONS, POSTGRES_RATE_LIMIT_TABLE } from './postgres-migrations.js';
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

// BIGINT (epoch ms) and COUNT(*) come back as numbers: every value here is far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

/** Any key: the advisory lock that serialises migrations across instances. */
const MIGRATION_LOCK = 4_711_2026;

const SESSION_SELECT = `
  SELECT s.*,
    COALESCE((SELECT json_agg(c.platform ORDER BY c.first_completed_at, c.platform)::text
      FROM link_session_completions c WHERE c.session_id = s.id), '[]') AS completed_networks,
    (SELECT MIN(first_completed_at) FROM link_session_completions c WHERE c.session_id = s.id) AS completed_at,
    (SELECT MAX(last_completed_at) FROM link_session_completions c WHERE c.session_id = s.id) AS last_completed_at
  FROM link_sessions s`;

type Queryable = Pick<pg.PoolClient, 'query'>;

export class PostgresStorage implements Storage {
  readonly kind = 'postgres';
  readonly #pool: pg.Pool;
  #rateLimitHits = 0;

  constructor(connectionString: string) {
    this.#pool = new pg.Pool({ connectionString, max: 10 });
    // An idle connection the server closes (restart, failover, DROP … FORCE) must not crash the process: the pool
    // drops it and opens a new one for the next query.
    this.#pool.on('error', () => {});
  }

  async #rows(sql: string, params: unknown[] = [], db: Queryable = this.#pool): Promise<Row[]> {
    return (await db.query(sql, params)).rows as Row[];
  }

  async #row(sql: string, params: unknown[] = [], db: Queryable = this.#pool): Promise<Row | null> {
    return (await this.#rows(sql, params, db))[0] ?? null;
  }

  async #transaction<T>(work: (db: Queryable) => Promise<T>): Promise<T> {
    const client = await this.#pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  async migrate(): Promise<void> {
    const client = await this.#pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
      await client.query('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)');
      const applied = new Set((await client.query('SELECT version FROM schema_migrations')).rows.map((row) => row.version as number));
      for (const [index, sql] of POSTGRES_MIGRATIONS.entries()) {
        const version = index + 1;
        if (applied.has(version)) continue;
        await client.query('BEGIN');
        try {
          await client.query(sql);
          await client.query('INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)', [version, Date.now()]);
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK');
          throw error;
        }
      }
      await client.query(POSTGRES_RATE_LIMIT_TABLE);
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
      client.release();
    }
  }

  async close(): Promise<void> {
    await this.#pool.end();
  }

  /**
   * Counts one event in `key`'s window, shared by every instance on this database (limits/shared-rate-limiter.ts;
   * not part of the Storage interface, since SQLite counts in memory). One upsert, so concurrent hits from several
   * instances each add exactly one; a window older than `windowMs` restarts at `now` with a count of 1.
   */
  async countRateLimitHit(key: string, windowMs: number, now: number): Promise<{ windowStart: number; count: number }> {
    const row = await this.#row(
      `INSERT INTO rate_limit_windows AS w (key, window_start, expires_at, count) VALUES ($1, $2::bigint, $2::bigint + $3::bigint, 1)
       ON CONFLICT (key) DO UPDATE SET
         window_start = CASE WHEN w.window_start + $3 <= $2 THEN $2 ELSE w.window_start END,
         expires_at = CASE WHEN w.window_start + $3 <= $2 THEN $2 + $3 ELSE w.expires_at END,
         count = CASE WHEN w.window_start + $3 <= $2 THEN 1 ELSE w.count + 1 END
       RETURNING window_start, count`,
      [key, now, windowMs],
    );
    // Expired windows are dropped now and then, so one row per IP ever seen does not pile up.
    if (++this.#rateLimitHits % 1000 === 0) await this.#pool.query('DELETE FROM rate_limit_windows WHERE expires_at <= $1', [now]);
    return { windowStart: row!.window_start as number, count: row!.count as number };
  }

  async countAccounts(): Promise<number> {
    return Number((await this.#row('SELECT COUNT(*) AS n FROM accounts'))!.n);
  }

  async createAccount(account: Account, primaryProfile: Profile): Promise<void> {
    await this.#transaction(async (db) => {
      await db.query(
        `INSERT INTO accounts (id, name, plan, max_pack, domains, allowed_origins, instagram_link_method, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
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
      await this.#insertProfile(primaryProfile, null, db);
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
    const assignments = columns.map(([name], index) => `${name} = $${index + 2}`).join(', ');
    await this.#pool.query(`UPDATE accounts SET ${assignments} WHERE id = $1`, [id, ...columns.map(([, value]) => value)]);
  }

  async addApiKey(accountId: string, keyHash: string, createdAt: number): Promise<void> {
    await this.#pool.query('INSERT INTO api_keys (key_hash, account_id, created_at) VALUES ($1, $2, $3)', [keyHash, accountId, createdAt]);
  }

  async findAccountByApiKeyHash(keyHash: string): Promise<Account | null> {
    const row = await this.#row('SELECT a.* FROM accounts a JOIN api_keys k ON k.account_id = a.id WHERE k.key_hash = $1', [keyHash]);
    return row ? toAccount(row) : null;
  }

  async findAccount(id: string): Promise<Account | null> {
    const row = await this.#row('SELECT * FROM accounts WHERE id = $1', [id]);
    return row ? toAccount(row) : null;
  }

  async createProfile(profile: Profile, profileKeyHash: string): Promise<void> {
    await this.#insertProfile(profile, profileKeyHash, this.#pool);
  }

  async #insertProfile(profile: Profile, profileKeyHash: string | null, db: Queryable): Promise<void> {
    await db.query(
      `INSERT INTO profiles (id, account_id, ref_id, title, is_primary, profile_key_hash, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [profile.id, profile.accountId, profile.refId, profile.title, profile.isPrimary ? 1 : 0, profileKeyHash, profile.createdAt],
    );
  }

  async findPrimaryProfile(accountId: string): Promise<Profile | null> {
    const row = await this.#row('SELECT * FROM profiles WHERE account_id = $1 AND is_primary = 1 AND deleted_at IS NULL', [accountId]);
    return row ? toProfile(row) : null;
  }

  async findProfileByKeyHash(accountId: string, profileKeyHash: string): Promise<Profile | null> {
    const row = await this.#row('SELECT * FROM profiles WHERE account_id = $1 AND profile_key_hash = $2 AND deleted_at IS NULL', [
      accountId,
      profileKeyHash,
    ]);
    return row ? toProfile(row) : null;
  }

  async findProfileById(id: string): Promise<Profile | null> {
    const row = await this.#row('SELECT * FROM profiles WHERE id = $1 AND deleted_at IS NULL', [id]);
    return row ? toProfile(row) : null;
  }

  async findProfileByRefId(refId: string): Promise<Profile | null> {
    const row = await this.#row('SELECT * FROM profiles WHERE ref_id = $1 AND deleted_at IS NULL', [refId]);
    return row ? toProfile(row) : null;
  }

  async listProfiles(accountId: string): Promise<Profile[]> {
    const rows = await this.#rows(
      'SELECT * FROM profiles WHERE account_id = $1 AND is_primary = 0 AND deleted_at IS NULL ORDER BY created_at, id',
      [accountId],
    );
    return rows.map(toProfile);
  }

  async deleteProfile(id: string, now: number): Promise<void> {
    await this.#transaction(async (db) => {
      await db.query('UPDATE profiles SET deleted_at = $1, profile_key_hash = NULL WHERE id = $2', [now, id]);
      // Revoking first waits for a link committing on one of the sessions (it holds the session row), so the
      // DELETE below sees that account too and reports it; later links find the session revoked.
      await db.query('UPDATE link_sessions SET revoked_at = $1 WHERE profile_id = $2 AND revoked_at IS NULL', [now, id]);
      const removed = (
        await db.query('DELETE FROM social_accounts WHERE profile_id = $1 RETURNING platform, display_name, linked_at', [id])
      ).rows as RemovedAccount[];
      // Each removed account is reported as if it had been unlinked through the API.
      for (const account of inLinkOrder(removed)) {
        await this.#enqueueSocialEvent(db, id, 'unlink', account.platform, account.display_name, now);
      }
    });
  }

  async createLinkSession(session: NewLinkSession): Promise<void> {
    await this.#insertLinkSession(session, 'session');
  }

  /** `legacy` rows stand in for verified JWT links; a second insert for the same token is a no-op. */
  async #insertLinkSession(session: NewLinkSession, kind: 'session' | 'legacy'): Promise<void> {
    await this.#pool.query(
      `INSERT INTO link_sessions (id, token_hash, account_id, profile_id, origin, redirect, domain, allowed_social,
         instagram_link_method, created_at, expires_at, kind)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
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
    const row = await this.#row(`${SESSION_SELECT} WHERE s.token_hash = $1`, [tokenHash]);
    return row ? toSession(row) : null;
  }

  async findLinkSession(accountId: string, sessionId: string): Promise<LinkSessionRecord | null> {
    const row = await this.#row(`${SESSION_SELECT} WHERE s.account_id = $1 AND s.id = $2 AND s.kind = 'session'`, [accountId, sessionId]);
    return row ? toSession(row) : null;
  }

  async findLinkSessionById(sessionId: string): Promise<LinkSessionRecord | null> {
    const row = await this.#row(`${SESSION_SELECT} WHERE s.id = $1`, [sessionId]);
    return row ? toSession(row) : null;
  }

  async revokeLinkSession(accountId: string, sessionId: string, now: number): Promise<LinkSessionRecord | null> {
    await this.#pool.query(
      "UPDATE link_sessions SET revoked_at = $1 WHERE account_id = $2 AND id = $3 AND revoked_at IS NULL AND kind = 'session'",
      [now, accountId, sessionId],
    );
    return this.findLinkSession(accountId, sessionId);
  }

  async linkAccount(sessionId: string, account: SocialAccount, now: number): Promise<LinkAccountResult> {
    return this.#transaction(async (db): Promise<LinkAccountResult> => {
      // The row lock orders this commit against a concurrent revoke of the same session.
      const session = await this.#row('SELECT expires_at, revoked_at FROM link_sessions WHERE id = $1 FOR UPDATE', [sessionId], db);
      if (!session) return { stored: false, reason: 'missing' };
      if (session.revoked_at !== null) return { stored: false, reason: 'revoked' };
      if ((session.expires_at as number) <= now) return { stored: false, reason: 'expired' };
      await db.query(
        `INSERT INTO social_accounts (profile_id, platform, network_user_id, display_name, username, tokens_encrypted, linked_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (profile_id, platform) DO UPDATE SET network_user_id = excluded.network_user_id,
           display_name = excluded.display_name, username = excluded.username,
           tokens_encrypted = excluded.tokens_encrypted, linked_at = excluded.linked_at`,
        [account.profileId, account.platform, account.networkUserId, account.displayName, account.username, account.tokensEncrypted, account.linkedAt],
      );
      await db.query(
        `INSERT INTO link_session_completions (session_id, platform, first_completed_at, last_completed_at)
         VALUES ($1, $2, $3, $3)
         ON CONFLICT (session_id, platform) DO UPDATE SET last_completed_at = excluded.last_completed_at`,
        [sessionId, account.platform, now],
      );
      await this.#enqueueSocialEvent(db, account.profileId, 'link', account.platform, account.displayName, now);
      return { stored: true, account };
    });
  }

  async listSocialAccounts(profileId: string): Promise<SocialAccount[]> {
    return (await this.#rows('SELECT * FROM social_accounts WHERE profile_id = $1 ORDER BY linked_at, platform', [profileId])).map(toSocialAccount);
  }

  async findSocialAccount(profileId: string, platform: Network): Promise<SocialAccount | null> {
    const row = await this.#row('SELECT * FROM social_accounts WHERE profile_id = $1 AND platform = $2', [profileId, platform]);
    return row ? toSocialAccount(row) : null;
  }

  async unlinkAccount(profileId: string, platform: Network, now: number): Promise<boolean> {
    return this.#transaction(async (db) => {
      const removed = await this.#row(
        'DELETE FROM social_accounts WHERE profile_id = $1 AND platform = $2 RETURNING display_name',
        [profileId, platform],
        db,
      );
      if (!removed) return false;
      await this.#enqueueSocialEvent(db, profileId, 'unlink', platform, (removed.display_name as string | null) ?? null, now);
      return true;
    });
  }

  /** Called inside the transaction of the change it reports, so both commit or neither does. */
  async #enqueueSocialEvent(db: Queryable, profileId: string, event: SocialEventKind, platform: Network, displayName: string | null, now: number) {
    const profile = await this.#row(
      `SELECT p.ref_id, p.title FROM webhooks w JOIN profiles p ON p.id = w.profile_id WHERE w.profile_id = $1 AND w.action = 'social'`,
      [profileId],
      db,
    );
    if (!profile) return;
    const payload = newSocialEvent({ event, platform, refId: profile.ref_id as string, title: profile.title as string, displayName, at: now });
    await db.query(
      `INSERT INTO webhook_outbox (id, profile_id, action, payload, created_at, next_attempt_at) VALUES ($1, $2, 'social', $3, $4, 0)`,
      [payload.id, profileId, JSON.stringify(payload), now],
    );
  }

  async createOAuthAttempt(attempt: OAuthAttempt): Promise<void> {
    await this.#pool.query(
      `INSERT INTO oauth_attempts (ticket_hash, state_hash, session_id, platform, code_verifier, binding_hash, created_at, expires_at, started_at, used_at, outcome)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
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
    const row = await this.#row(
      `UPDATE oauth_attempts SET started_at = $1, binding_hash = $2, state_hash = $3
       WHERE ticket_hash = $4 AND started_at IS NULL AND expires_at > $1 RETURNING *`,
      [now, binding.bindingHash, binding.stateHash, ticketHash],
    );
    return row ? toOAuthAttempt(row) : null;
  }

  async useOAuthAttempt(stateHash: string, now: number): Promise<OAuthAttempt | null> {
    const row = await this.#row(
      `UPDATE oauth_attempts SET used_at = $1
       WHERE state_hash = $2 AND used_at IS NULL AND started_at IS NOT NULL AND expires_at > $1 RETURNING *`,
      [now, stateHash],
    );
    return row ? toOAuthAttempt(row) : null;
  }

  async findOAuthAttempt(stateHash: string): Promise<OAuthAttempt | null> {
    const row = await this.#row('SELECT * FROM oauth_attempts WHERE state_hash = $1', [stateHash]);
    return row ? toOAuthAttempt(row) : null;
  }

  async recordOAuthOutcome(stateHash: string, outcome: string): Promise<void> {
    await this.#pool.query('UPDATE oauth_attempts SET outcome = $1 WHERE state_hash = $2', [outcome, stateHash]);
  }

  async createTelegramCode(code: TelegramCode): Promise<void> {
    await this.#pool.query(
      'INSERT INTO telegram_codes (code_hash, session_id, created_at, expires_at, used_at) VALUES ($1, $2, $3, $4, $5)',
      [code.codeHash, code.sessionId, code.createdAt, code.expiresAt, code.usedAt],
    );
  }

  async useTelegramCode(codeHash: string, now: number): Promise<TelegramCode | null> {
    const row = await this.#row(
      'UPDATE telegram_codes SET used_at = $1 WHERE code_hash = $2 AND used_at IS NULL AND expires_at > $1 RETURNING *',
      [now, codeHash],
    );
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
    await this.#pool.query(
      `INSERT INTO webhooks (profile_id, action, url, secret, created_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (profile_id, action) DO UPDATE SET url = excluded.url, secret = excluded.secret, created_at = excluded.created_at`,
      [registration.profileId, registration.action, registration.url, registration.secret, registration.createdAt],
    );
  }

  async listWebhooks(profileId: string): Promise<WebhookRegistration[]> {
    return (await this.#rows('SELECT * FROM webhooks WHERE profile_id = $1 ORDER BY action', [profileId])).map(toWebhook);
  }

  async deleteWebhook(profileId: string, action: string): Promise<boolean> {
    return ((await this.#pool.query('DELETE FROM webhooks WHERE profile_id = $1 AND action = $2', [profileId, action])).rowCount ?? 0) > 0;
  }

  async claimWebhookDeliveries(now: number, leaseUntil: number, limit: number): Promise<WebhookDelivery[]> {
    return this.#transaction(async (db) => {
      const rows = await this.#rows(
        `SELECT o.id, o.profile_id, o.action, o.payload, o.attempts, o.created_at, w.url, w.secret
         FROM webhook_outbox o LEFT JOIN webhooks w ON w.profile_id = o.profile_id AND w.action = o.action
         WHERE o.delivered_at IS NULL AND o.failed_at IS NULL AND o.next_attempt_at <= $1
           AND (o.claimed_until IS NULL OR o.claimed_until <= $1)
         ORDER BY o.next_attempt_at, o.created_at, o.seq LIMIT $2
         FOR UPDATE OF o SKIP LOCKED`,
        [now, limit],
        db,
      );
      const claimed: WebhookDelivery[] = [];
      for (const row of rows) {
        if (row.url === null) {
          await db.query("UPDATE webhook_outbox SET failed_at = $1, last_error = 'webhook unregistered' WHERE id = $2", [now, row.id]);
          continue;
        }
        await db.query('UPDATE webhook_outbox SET claimed_until = $1, attempts = attempts + 1 WHERE id = $2', [leaseUntil, row.id]);
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
    });
  }

  async finishWebhookDelivery(id: string, outcome: WebhookDeliveryOutcome): Promise<void> {
    if (outcome.kind === 'delivered') {
      await this.#pool.query('UPDATE webhook_outbox SET delivered_at = $1, claimed_until = NULL, last_error = NULL WHERE id = $2', [outcome.at, id]);
    } else if (outcome.kind === 'retry') {
      await this.#pool.query('UPDATE webhook_outbox SET next_attempt_at = $1, claimed_until = NULL, last_error = $2 WHERE id = $3', [
        outcome.nextAttemptAt,
        outcome.error,
        id,
      ]);
    } else {
      await this.#pool.query('UPDATE webhook_outbox SET failed_at = $1, claimed_until = NULL, last_error = $2 WHERE id = $3', [outcome.at, outcome.error, id]);
    }
  }

  async listWebhookDeliveries(profileId: string): Promise<WebhookDeliveryStatus[]> {
    const rows = await this.#rows('SELECT * FROM webhook_outbox WHERE profile_id = $1 ORDER BY created_at, seq', [profileId]);
    return rows.map((r) => ({
      id: r.id as string,
      action: r.action as string,
      payload: r.payload as string,
      attempts: r.attempts as number,
      nextAttemptAt: r.next_attempt_at as number,
      deliveredAt: (r.delivered_at as number | null) ?? null,
      failedAt: (r.failed_at as number | null) ?? null,
      lastError: (r.last_error as string | null) ?? null,
    }));
  }

  async pruneWebhookOutbox(finishedBefore: number): Promise<number> {
    // Pending rows have neither time, so COALESCE is NULL and they never match.
    const result = await this.#pool.query('DELETE FROM webhook_outbox WHERE COALESCE(delivered_at, failed_at) < $1', [finishedBefore]);
    return result.rowCount ?? 0;
  }

  async findOrCreateLegacyLinkSession(session: NewLinkSession): Promise<LinkSessionRecord> {
    await this.#insertLinkSession(session, 'legacy');
    const row = await this.#row(`${SESSION_SELECT} WHERE s.token_hash = $1 AND s.kind = 'legacy'`, [session.tokenHash]);
    if (!row) throw new Error('legacy link session row missing after insert');
    return toSession(row);
  }

  async findIntegrationKey(accountId: string, kind: IntegrationKey['kind']): Promise<IntegrationKey | null> {
    const row = await this.#row('SELECT * FROM integration_keys WHERE account_id = $1 AND kind = $2', [accountId, kind]);
    return row ? toIntegrationKey(row) : null;
  }

  async putIntegrationKey(key: IntegrationKey): Promise<void> {
    await this.#pool.query(
      `INSERT INTO integration_keys (account_id, kind, algorithm, public_jwk, private_jwk, created_at) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (account_id, kind) DO UPDATE SET algorithm = excluded.algorithm, public_jwk = excluded.public_jwk,
         private_jwk = excluded.private_jwk, created_at = excluded.created_at`,
      integrationKeyValues(key),
    );
  }

  async addIntegrationKeyIfMissing(key: IntegrationKey): Promise<IntegrationKey> {
    await this.#pool.query(
      `INSERT INTO integration_keys (account_id, kind, algorithm, public_jwk, private_jwk, created_at) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (account_id, kind) DO NOTHING`,
      integrationKeyValues(key),
    );
    return (await this.findIntegrationKey(key.accountId, key.kind))!;
  }

  async resetIntegrationKeys(accountId: string, now: number): Promise<void> {
    await this.#transaction(async (db) => {
      await db.query('DELETE FROM integration_keys WHERE account_id = $1', [accountId]);
      await db.query("UPDATE link_sessions SET revoked_at = $1 WHERE account_id = $2 AND kind = 'legacy' AND revoked_at IS NULL", [now, accountId]);
    });
  }
}
