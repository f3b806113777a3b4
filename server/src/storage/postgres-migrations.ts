/**
 * @module
 * Schema of the PostgreSQL backend: the same tables, columns and versions as sqlite-migrations.ts, in
 * PostgreSQL's dialect (BIGINT epoch-ms times, 0/1 INTEGER flags and JSON text so both backends share the row
 * mappers in rows.ts). Applied under an advisory lock so instances starting together do not race.
 */
export const POSTGRES_MIGRATIONS: readonly string[] = [
  /* 1: accounts, keys, profiles, link sessions, linked accounts */ `
  CREATE TABLE accounts (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    plan TEXT NOT NULL,
    max_pack INTEGER NOT NULL DEFAULT 0,
    domains TEXT NOT NULL,
    allowed_origins TEXT NOT NULL DEFAULT '[]',
    instagram_link_method TEXT NOT NULL DEFAULT 'instagram',
    created_at BIGINT NOT NULL
  );
  CREATE TABLE api_keys (
    key_hash TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL
  );
  CREATE TABLE profiles (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    ref_id TEXT NOT NULL UNIQUE,
    title TEXT NOT NULL,
    is_primary INTEGER NOT NULL DEFAULT 0,
    profile_key_hash TEXT UNIQUE,
    created_at BIGINT NOT NULL,
    deleted_at BIGINT
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
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    revoked_at BIGINT
  );
  CREATE INDEX link_sessions_profile ON link_sessions(profile_id);
  CREATE TABLE link_session_completions (
    session_id TEXT NOT NULL REFERENCES link_sessions(id) ON DELETE CASCADE,
    platform TEXT NOT NULL,
    first_completed_at BIGINT NOT NULL,
    last_completed_at BIGINT NOT NULL,
    PRIMARY KEY (session_id, platform)
  );
  CREATE TABLE social_accounts (
    profile_id TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
    platform TEXT NOT NULL,
    network_user_id TEXT NOT NULL,
    display_name TEXT,
    username TEXT,
    tokens_encrypted TEXT,
    linked_at BIGINT NOT NULL,
    PRIMARY KEY (profile_id, platform)
  );
  `,
  /* 2: webhooks, the delivery outbox, legacy JWT links and integration keys */ `
  CREATE TABLE webhooks (
    profile_id TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
    action TEXT NOT NULL,
    url TEXT NOT NULL,
    secret TEXT,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (profile_id, action)
  );
  CREATE TABLE webhook_outbox (
    seq BIGSERIAL UNIQUE,
    id TEXT PRIMARY KEY,
    profile_id TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
    action TEXT NOT NULL,
    payload TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at BIGINT NOT NULL,
    claimed_until BIGINT,
    delivered_at BIGINT,
    failed_at BIGINT,
    last_error TEXT
  );
  CREATE INDEX webhook_outbox_pending ON webhook_outbox(next_attempt_at) WHERE delivered_at IS NULL AND failed_at IS NULL;
  ALTER TABLE link_sessions ADD COLUMN kind TEXT NOT NULL DEFAULT 'session';
  CREATE TABLE integration_keys (
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    algorithm TEXT NOT NULL,
    public_jwk TEXT NOT NULL,
    private_jwk TEXT,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (account_id, kind)
  );
  `,
  /* 3: OAuth connection attempts and telegram codes */ `
  CREATE TABLE oauth_attempts (
    ticket_hash TEXT PRIMARY KEY,
    state_hash TEXT UNIQUE,
    session_id TEXT NOT NULL REFERENCES link_sessions(id) ON DELETE CASCADE,
    platform TEXT NOT NULL,
    code_verifier TEXT NOT NULL,
    binding_hash TEXT,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    started_at BIGINT,
    used_at BIGINT
  );
  CREATE INDEX oauth_attempts_session ON oauth_attempts(session_id);
  CREATE TABLE telegram_codes (
    code_hash TEXT PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES link_sessions(id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    used_at BIGINT
  );
  `,
  /* 4: the outcome of each OAuth attempt, so a replayed callback shows the same result */ `
  ALTER TABLE oauth_attempts ADD COLUMN outcome TEXT;
  `,
  /* 5: finished outbox rows by the time they finished, for the worker's retention pruning */ `
  CREATE INDEX webhook_outbox_finished ON webhook_outbox ((COALESCE(delivered_at, failed_at)));
  `,
];

/**
 * Abuse-limit counters (limits/shared-rate-limiter.ts). Not a numbered version: SQLite keeps these counters in
 * process memory, and the version numbers stay the same on both backends. UNLOGGED: losing the counters in a
 * crash only resets the windows, and it spares the WAL a write on every token lookup.
 */
export const POSTGRES_RATE_LIMIT_TABLE = `
  CREATE UNLOGGED TABLE IF NOT EXISTS rate_limit_windows (
    key TEXT PRIMARY KEY,
    window_start BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    count INTEGER NOT NULL
  );
  CREATE INDEX IF NOT EXISTS rate_limit_windows_expiry ON rate_limit_windows(expires_at);
`;
