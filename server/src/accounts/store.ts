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

const callerSelect = (profileMatch: string) => `SELECT a.id AS account_id, a.name AS account_name, a.plan AS account_plan,
    a.max_pack AS account_max_pack, a.domains AS account_domains, a.allowed_origins AS account_allowed_origins,
    a.instagram_link_method AS account_instagram_link_method, a.created_at AS account_created_at,
    p.id AS profile_id, p.account_id AS profile_account_id, p.ref_id AS profile_ref_id, p.title AS profile_title,
    p.is_primary AS profile_is_primary, p.created_at AS profile_created_at
  FROM api_keys k JOIN accounts a ON a.id = k.account_id
  LEFT JOIN profiles p ON p.account_id = a.id AND ${profileMatch} AND p.deleted_at IS NULL
  WHERE k.key_hash = ? LIMIT 1`;
const CALLER_WITH_PRIMARY_PROFILE = callerSelect('p.is_primary = 1');
/** The Profile-Key hash is bound first. */
const CALLER_WITH_PROFILE_KEY = callerSelect('p.profile_key_hash = ?');

/**
 * The account of an API key hash and the profile it selects, as one statement's text and parameters: its own
 * statement here (`findCaller`), or the first part of a read that answers in the same round trip
 * (publishing/post-reads.ts, on PostgreSQL where the caller cache is off). At most one row, none for an unknown key.
 * The columns carry an `account_` or `profile_` prefix (so a statement that reads more beside them keeps its own
 * names); the profile's are null when no live profile matches. The profile is the Primary one, or that of the
 * Profile-Key hash when one is given.
 */
export function callerQuery(apiKeyHash: string, profileKeyHash: string | null): { sql: string; params: string[] } {
  return profileKeyHash === null ? { sql: CALLER_WITH_PRIMARY_PROFILE, params: [apiKeyHash] } : { sql: CALLER_WITH_PROFILE_KEY, params: [profileKeyHash, apiKeyHash] };
}

/** The caller a row of `callerQuery`'s columns names. */
export function callerOfRow(row: Row): Caller {
  const account = toAccount({
    id: row.account_id,
    name: row.account_name,
    plan: row.account_plan,
    max_pack: row.account_max_pack,
    domains: row.account_domains,
    allowed_origins: row.account_allowed_origins,
    instagram_link_method: row.account_instagram_link_method,
    created_at: row.account_created_at,
  });
  const profile =
    row.profile_id === null || row.profile_id === undefined
      ? null
      : toProfile({
          id: row.profile_id,
          account_id: row.profile_account_id,
          ref_id: row.profile_ref_id,
          title: row.profile_title,
          is_primary: row.profile_is_primary,
          created_at: row.profile_created_at,
        });
  return { account, profile };
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
    const { sql, params } = callerQuery(apiKeyHash, profileKeyHash);
    const row = await this.db.get(sql, params);
    if (!row) return null;
    const caller = callerOfRow(row);
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
