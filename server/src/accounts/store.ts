/**
 * @module
 * The accounts feature's SQL: accounts, their API keys and profiles. Times are epoch milliseconds.
 */
import type { SqlExecutor } from '../core/db/sql-driver.js';
import { toAccount, toProfile, type Row } from '../core/db/rows.js';
import { SqlStore } from '../core/db/sql-store.js';
import type { Account, Profile } from '../core/db/storage-types.js';
import { checkBranding, type Branding } from '@social-link-kit/protocol';
import { CallerCache, callerCacheOf, type Caller } from './caller-cache.js';

/**
 * The account of an API key hash and the profile it selects, in one statement (one round trip on PostgreSQL, where
 * the caller cache is off): the profile's columns carry a `profile_` prefix and are null when no live profile
 * matches. The profile is the Primary one, or with CALLER_WITH_PROFILE_KEY the one of a Profile-Key hash (bound first).
 */
const CALLER_SELECT = `
  SELECT a.*, p.id AS profile_id, p.account_id AS profile_account_id, p.ref_id AS profile_ref_id, p.title AS profile_title,
    p.is_primary AS profile_is_primary, p.created_at AS profile_created_at
  FROM api_keys k JOIN accounts a ON a.id = k.account_id`;
const CALLER_WITH_PRIMARY_PROFILE = `${CALLER_SELECT}
  LEFT JOIN profiles p ON p.account_id = a.id AND p.is_primary = 1 AND p.deleted_at IS NULL
  WHERE k.key_hash = ?`;
const CALLER_WITH_PROFILE_KEY = `${CALLER_SELECT}
  LEFT JOIN profiles p ON p.account_id = a.id AND p.profile_key_hash = ? AND p.deleted_at IS NULL
  WHERE k.key_hash = ?`;

function callerOf(row: Row): Caller {
  const profile =
    row.profile_id === null
      ? null
      : toProfile({
          id: row.profile_id,
          account_id: row.profile_account_id,
          ref_id: row.profile_ref_id,
          title: row.profile_title,
          is_primary: row.profile_is_primary,
          created_at: row.profile_created_at,
        });
  return { account: toAccount(row), profile };
}

export class AccountStore extends SqlStore {
  /** Cleared by every write below that can change who a key is (caller-cache.ts). */
  readonly #callers: CallerCache = callerCacheOf(this.db);

  /**
   * The account of an API key hash and its Primary Profile (or the profile of a Profile-Key hash); null for an
   * unknown key. Served from memory while no write could have changed the answer.
   */
  async findCaller(apiKeyHash: string, profileKeyHash: string | null): Promise<Caller | null> {
    const key = CallerCache.keyOf(apiKeyHash, profileKeyHash);
    const cached = this.#callers.find(key);
    if (cached) return cached;
    const generation = this.#callers.generation;
    const row =
      profileKeyHash === null
        ? await this.db.get(CALLER_WITH_PRIMARY_PROFILE, [apiKeyHash])
        : await this.db.get(CALLER_WITH_PROFILE_KEY, [profileKeyHash, apiKeyHash]);
    if (!row) return null;
    const caller = callerOf(row);
    if (caller.profile) this.#callers.remember(key, caller, generation);
    return caller;
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
    this.#callers.clear();
    await this.db.transaction(async (tx) => {
      const planBefore = changes.plan !== undefined ? (await tx.get('SELECT plan FROM accounts WHERE id = ?', [id]))?.plan : undefined;
      await tx.run(`UPDATE accounts SET ${assignments} WHERE id = ?`, [...columns.map(([, value]) => value), id]);
      this.#callers.clear();
      // Spec 7 (106): a plan change resets the Primary Profile's monthly post count (publishing's post_counts).
      if (planBefore !== undefined && planBefore !== changes.plan) {
        await tx.run('DELETE FROM post_counts WHERE profile_id IN (SELECT id FROM profiles WHERE account_id = ? AND is_primary = 1)', [id]);
      }
    });
  }

  /** The account's branding (name, logo, colour), or null when it has none or the account does not exist. */
  async getBranding(accountId: string): Promise<Branding | null> {
    const row = await this.db.get('SELECT branding FROM accounts WHERE id = ?', [accountId]);
    if (!row?.branding) return null;
    const checked = checkBranding(JSON.parse(row.branding as string));
    return checked.ok ? checked.branding : null;
  }

  /**
   * Sets (or with null, removes) the account's branding. Throws a TypeError naming the problem when the branding
   * breaks the rules of src/protocol/branding.ts; callers that take it from a request check it first
   * (accounts/branding-request.ts) to answer with the error envelope.
   */
  async setBranding(accountId: string, branding: Branding | null): Promise<void> {
    let stored: string | null = null;
    if (branding !== null) {
      const checked = checkBranding(branding);
      if (!checked.ok) throw new TypeError(checked.problem);
      stored = Object.keys(checked.branding).length > 0 ? JSON.stringify(checked.branding) : null;
    }
    await this.db.run('UPDATE accounts SET branding = ? WHERE id = ?', [stored, accountId]);
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

  /**
   * Marks the profile deleted, inside the transaction of accounts/service.ts `deleteProfile`, last: updating the
   * profile row (its unique key column) locks it against the foreign-key checks of a link or unlink still
   * committing; taken earlier, that link would wait on us while we wait on it (deadlock).
   */
  async markProfileDeleted(tx: SqlExecutor, id: string, now: number): Promise<void> {
    this.#callers.clear();
    await tx.run('UPDATE profiles SET deleted_at = ?, profile_key_hash = NULL WHERE id = ?', [now, id]);
    this.#callers.clear();
  }
}
