/**
 * @module
 * The schema of both backends, as ordered migrations. Each runs once, in a transaction, and is recorded in
 * `schema_migrations`. Append new migrations; never edit one that has shipped: on SQLite the CREATE text itself
 * is stored in the database, so the SQLite text must stay byte for byte what it has always been.
 * The backends differ only in the time columns' type (`timeType`) and PostgreSQL's outbox `seq`
 * column; flags stay 0/1 INTEGER and arrays JSON text, so both share the row mappers in rows.ts.
 */
import { publishingMigration, duplicateIndexMigration, duplicateBandsRebuildMigration, partialPostIndexesMigration, duplicateBandSizesMigration } from '../../publishing/schema.js';
import { mediaCopiesAndAccountTypeMigration } from '../../publishing/schema-media-copies-and-account-type.js';
import { sandboxIdentityMigration, sandboxLookupIndexMigration, sandboxNetworksMigration } from '@social-link-kit/sandbox';
import { LOCALE_AND_BRANDING_MIGRATION } from './migration-locale-branding.js';
import { rateBudgetMigration } from '../../publishing/rate-budget-schema.js';
import { tokenRefreshMigration } from '../../networks/token-refresh-schema.js';
import { analyticsMigration } from '../../analytics/schema.js';
import { attemptLogMigration } from '../../publishing/attempt-log-schema.js';
import { POSTGRES_DIALECT, SQLITE_DIALECT, type SqlDialect } from './sql-dialect.js';
import { operatorMigration } from '../../accounts/admin/schema.js';
import { outboxOnJobsMigration } from '../../webhooks/outbox-on-jobs-migration.js';
import { deliveryLogMigration } from '../../webhooks/delivery-log-migration.js';
import { accountHealthMigration, refreshExpiryMigration } from '../../account-health/schema.js';
import { profileSuspensionMigration } from '../../accounts/suspension-schema.js';
import { callUntilMigration } from '../jobs/call-until-migration.js';

export function schemaMigrationsTable(dialect: SqlDialect): string {
  return `CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at ${dialect.timeType} NOT NULL)`;
}

export function migrationsFor(dialect: SqlDialect): readonly string[] {
  const time = dialect.timeType;
  return [
    /* 1: accounts, keys, profiles, link sessions, linked accounts */ `
  CREATE TABLE accounts (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    plan TEXT NOT NULL,
    max_pack INTEGER NOT NULL DEFAULT 0,
    domains TEXT NOT NULL,
    allowed_origins TEXT NOT NULL DEFAULT '[]',
    instagram_link_method TEXT NOT NULL DEFAULT 'instagram',
    created_at ${time} NOT NULL
  );
  CREATE TABLE api_keys (
    key_hash TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    created_at ${time} NOT NULL
  );
  CREATE TABLE profiles (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    ref_id TEXT NOT NULL UNIQUE,
    title TEXT NOT NULL,
    is_primary INTEGER NOT NULL DEFAULT 0,
    profile_key_hash TEXT UNIQUE,
    created_at ${time} NOT NULL,
    deleted_at ${time}
  );
  CREATE INDEX profiles_account ON profiles(account_id);
  CREATE TABLE link_sessions (
    id TEXT PRIMARY KEY,
    token_hash TEXT NOT NULL UNIQUE,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    profile_id TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
    origin TEXT,
    redirect TEXT,
    domain TEXT NOT NULL,
    allowed_social TEXT,
    instagram_link_method TEXT,
    created_at ${time} NOT NULL,
    expires_at ${time} NOT NULL,
    revoked_at ${time}
  );
  CREATE INDEX link_sessions_profile ON link_sessions(profile_id);
  CREATE TABLE link_session_completions (
    session_id TEXT NOT NULL REFERENCES link_sessions(id) ON DELETE CASCADE,
    platform TEXT NOT NULL,
    first_completed_at ${time} NOT NULL,
    last_completed_at ${time} NOT NULL,
    PRIMARY KEY (session_id, platform)
  );
  CREATE TABLE social_accounts (
    profile_id TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
    platform TEXT NOT NULL,
    network_user_id TEXT NOT NULL,
    display_name TEXT,
    username TEXT,
    tokens_encrypted TEXT,
    linked_at ${time} NOT NULL,
    PRIMARY KEY (profile_id, platform)
  );
  `,
    /* 2: webhooks: registrations, the delivery outbox, legacy JWT links and integration keys */ `
  CREATE TABLE webhooks (
    profile_id TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
    action TEXT NOT NULL,
    url TEXT NOT NULL,
    -- The HMAC secret has to be usable to sign, so it cannot be stored as a hash.
    secret TEXT,
    created_at ${time} NOT NULL,
    PRIMARY KEY (profile_id, action)
  );
  -- Written in the same transaction as the change it reports; the delivery worker drains it.
  CREATE TABLE webhook_outbox (${dialect.outboxInsertOrderDefinition}
    id TEXT PRIMARY KEY,
    profile_id TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
    action TEXT NOT NULL,
    payload TEXT NOT NULL,
    created_at ${time} NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at ${time} NOT NULL,
    claimed_until ${time},
    delivered_at ${time},
    failed_at ${time},
    last_error TEXT
  );
  CREATE INDEX webhook_outbox_pending ON webhook_outbox(next_attempt_at) WHERE delivered_at IS NULL AND failed_at IS NULL;
  -- 'session' = created through the API; 'legacy' = stands in for a verified legacy JWT link.
  ALTER TABLE link_sessions ADD COLUMN kind TEXT NOT NULL DEFAULT 'session';
  -- kind 'integrator': public key registered by the integrator; kind 'service': our own keypair for generateJWT.
  CREATE TABLE integration_keys (
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    algorithm TEXT NOT NULL,
    public_jwk TEXT NOT NULL,
    -- Only for kind 'service'. Stored as a JWK in the database for now; move under the token encryption key.
    private_jwk TEXT,
    created_at ${time} NOT NULL,
    PRIMARY KEY (account_id, kind)
  );
  `,
    /* 3: OAuth connection attempts (state, PKCE verifier, start ticket, browser binding) and telegram codes */ `
  CREATE TABLE oauth_attempts (
    ticket_hash TEXT PRIMARY KEY,
    state_hash TEXT UNIQUE,
    session_id TEXT NOT NULL REFERENCES link_sessions(id) ON DELETE CASCADE,
    platform TEXT NOT NULL,
    code_verifier TEXT NOT NULL,
    binding_hash TEXT,
    created_at ${time} NOT NULL,
    expires_at ${time} NOT NULL,
    started_at ${time},
    used_at ${time}
  );
  CREATE INDEX oauth_attempts_session ON oauth_attempts(session_id);
  CREATE TABLE telegram_codes (
    code_hash TEXT PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES link_sessions(id) ON DELETE CASCADE,
    created_at ${time} NOT NULL,
    expires_at ${time} NOT NULL,
    used_at ${time}
  );
  `,
    /* 4: the outcome of each OAuth attempt, so a replayed callback shows the same result */ `
  ALTER TABLE oauth_attempts ADD COLUMN outcome TEXT;
  `,
    /* 5: finished outbox rows by the time they finished, for the worker's retention pruning */ `
  CREATE INDEX webhook_outbox_finished ON webhook_outbox (COALESCE(delivered_at, failed_at));
  `,
    /* 6: posts, platform attempts and the jobs table */ publishingMigration(dialect),
    /* 7: the sandbox networks' state */ sandboxNetworksMigration(dialect),
    /* 8: stored media copies of posts; the account type of linked accounts */ mediaCopiesAndAccountTypeMigration(),
    /* 9: a link session's locale, an account's branding */ LOCALE_AND_BRANDING_MIGRATION,
    /* 10: rate budgets shared by every instance (instagram's 50 posts per 24 h) */ rateBudgetMigration(dialect),
    /* 11: stored analytics snapshots; sandbox comment authors and replies */ analyticsMigration(dialect),
    /* 12 (operator): twitter credentials policy, post quotas, readiness probe */ operatorMigration(dialect),
    /* 13: token refresh leases and accounts whose refresh was refused (need relinking) */ tokenRefreshMigration(dialect),
    /* 14: the webhook outbox moves onto the jobs table */ outboxOnJobsMigration(dialect),
    /* 15: sandbox users and codes (one identity authority); where each account was linked */ sandboxIdentityMigration(dialect),
    /* 16: the webhook delivery log: one row per attempt */ deliveryLogMigration(dialect),
    /* 17: the duplicate rule through indexes (profile and account on platform rows, near-duplicate bands) */ duplicateIndexMigration(dialect),
    /* 18: account health per linked account; pre-flight warnings of scheduled posts */ accountHealthMigration(dialect),
    /* 19: the sandbox's lookups by network id and by account's newest posts, indexed */ sandboxLookupIndexMigration(),
    /* 20: the per-post timeline of publish attempts */ attemptLogMigration(dialect),
    /* 21: when an account's refresh token ends (tiktok, linkedin), for account.expiring */ refreshExpiryMigration(dialect),
    /* 22: profile suspension after a repeat community standards block (249) */ profileSuspensionMigration(dialect),
    /* 23: until when a job's last send may still be answered (a takeover waits for it) */ callUntilMigration(dialect),
    /* 24: the near-duplicate bands in one B-tree, 10 rows per post instead of 16 */ duplicateBandsRebuildMigration(dialect),
    /* 25: the account-wide duplicate key, idempotency and series indexes only where they are read */ partialPostIndexesMigration(),
    /* 26: each band row carries its text's trigram count, so the lookup skips texts far longer or shorter */ duplicateBandSizesMigration(dialect),
  ];
}

export const SQLITE_MIGRATIONS = migrationsFor(SQLITE_DIALECT);
export const POSTGRES_MIGRATIONS = migrationsFor(POSTGRES_DIALECT);
