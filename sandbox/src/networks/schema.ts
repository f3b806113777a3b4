import type { SqlDialect } from '@social-link-kit/server/sandbox-host.js';
/**
 * @module
 * Migration 7: the sandbox networks' own state, i.e. what each sandbox network "published". The sandbox plays the
 * network, so these tables hold network-side facts only (network account ids, never a service profile).
 * - `sandbox_posts`: one row per post, bluesky record or telegram message. `network_id` is the network's own name
 *   for it (generic id, `collection/rkey`, telegram message id), unique per account as on the network, which is
 *   what makes a second bluesky create with the same rkey fail. `client_key` is the caller's key (generic API),
 *   deliberately not unique: a double publish stays visible, so tests can count it.
 * - `sandbox_comments`: comments under a sandbox post.
 * - `sandbox_blobs`: bluesky blobs from uploadBlob (base64 text: one type on both databases).
 * - `sandbox_tokens`: hashes of the tokens the sandbox networks issued (access and refresh), with expiry and use.
 */

export function sandboxNetworksMigration(dialect: SqlDialect): string {
  const time = dialect.timeType;
  return `
  CREATE TABLE sandbox_posts (
    id TEXT PRIMARY KEY,
    platform TEXT NOT NULL,
    account_id TEXT NOT NULL,
    network_id TEXT NOT NULL,
    client_key TEXT,
    text TEXT NOT NULL,
    media TEXT NOT NULL,
    record TEXT,
    status TEXT NOT NULL,
    error TEXT,
    created_at ${time} NOT NULL,
    ready_at ${time} NOT NULL,
    deleted_at ${time},
    UNIQUE (platform, account_id, network_id)
  );
  CREATE INDEX sandbox_posts_client_key ON sandbox_posts(platform, account_id, client_key);
  CREATE TABLE sandbox_comments (
    id TEXT PRIMARY KEY,
    post_id TEXT NOT NULL REFERENCES sandbox_posts(id) ON DELETE CASCADE,
    text TEXT NOT NULL,
    media TEXT NOT NULL,
    created_at ${time} NOT NULL
  );
  CREATE INDEX sandbox_comments_post ON sandbox_comments(post_id);
  CREATE TABLE sandbox_blobs (
    account_id TEXT NOT NULL,
    cid TEXT NOT NULL,
    mime_type TEXT NOT NULL,
    size INTEGER NOT NULL,
    bytes_base64 TEXT NOT NULL,
    created_at ${time} NOT NULL,
    PRIMARY KEY (account_id, cid)
  );
  CREATE TABLE sandbox_tokens (
    token_hash TEXT PRIMARY KEY,
    platform TEXT NOT NULL,
    account_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    handle TEXT,
    created_at ${time} NOT NULL,
    expires_at ${time},
    used_at ${time}
  );
  `;
}

/**
 * Migration 15: the sandbox as one identity authority.
 * - `sandbox_users`: every sandbox network user, made by a consent screen, a bluesky sign-up or the accounts route,
 *   each with its own id and handle (unique per network, as on a network); bluesky users keep their app password's
 *   hash; `details` holds what the network reports of the user (instagram's account type, threads' eligibility).
 * - `sandbox_codes`: authorization codes of the sandbox OAuth server, bound to the client, redirect URI and PKCE
 *   challenge, single use, ten minutes.
 * - `social_accounts.sandbox`: where an account was linked (1 = the sandbox, 0 = the real network), so it is always
 *   called there; null for accounts linked before (the service-wide setting decides, as it did).
 */
export function sandboxIdentityMigration(dialect: SqlDialect): string {
  const time = dialect.timeType;
  return `
  CREATE TABLE sandbox_users (
    platform TEXT NOT NULL,
    account_id TEXT NOT NULL,
    handle TEXT NOT NULL,
    display_name TEXT NOT NULL,
    password_hash TEXT,
    details TEXT NOT NULL,
    created_at ${time} NOT NULL,
    PRIMARY KEY (platform, account_id),
    UNIQUE (platform, handle)
  );
  CREATE TABLE sandbox_codes (
    code_hash TEXT PRIMARY KEY,
    platform TEXT NOT NULL,
    account_id TEXT NOT NULL,
    client_id TEXT NOT NULL,
    redirect_uri TEXT NOT NULL,
    code_challenge TEXT,
    scope TEXT NOT NULL,
    refuse_exchange INTEGER NOT NULL,
    expires_at ${time} NOT NULL,
    used_at ${time}
  );
  ALTER TABLE social_accounts ADD COLUMN sandbox INTEGER;
  `;
}

/**
 * Migration 19: the sandbox's own lookups by index, so its cost stays flat as its posts grow and publishing
 * benchmarks measure the service (a post by its network id: the UNIQUE key leads with the account, which that lookup
 * does not know; an account's newest posts: the duplicate rules and feeds).
 */
export function sandboxLookupIndexMigration(): string {
  return `
  CREATE INDEX sandbox_posts_network_id ON sandbox_posts(platform, network_id);
  CREATE INDEX sandbox_posts_account_created ON sandbox_posts(platform, account_id, created_at);
  `;
}
