/**
 * @module
 * The admin operations' own SQL: listing accounts, replacing API keys, the twitter credentials policy and the
 * per-profile monthly post quota (the `post_quotas` table the publishing feature reads).
 */
import { toAccount, toProfile } from '../../core/db/rows.js';
import { SqlStore } from '../../core/db/sql-store.js';
import { callerCacheOf } from '../caller-cache.js';
import type { Account, Profile } from '../../core/db/storage-types.js';

export type TwitterCredentialsPolicy = 'own-app' | 'service-app';

export interface AccountOverview extends Account {
  twitterCredentialsPolicy: TwitterCredentialsPolicy;
  apiKeys: number;
  profiles: number;
}

export class AdminStore extends SqlStore {
  async listAccounts(): Promise<AccountOverview[]> {
    const rows = await this.db.all(
      `SELECT a.*,
        (SELECT COUNT(*) FROM api_keys k WHERE k.account_id = a.id) AS api_key_count,
        (SELECT COUNT(*) FROM profiles p WHERE p.account_id = a.id AND p.deleted_at IS NULL) AS profile_count
       FROM accounts a ORDER BY a.created_at, a.id`,
    );
    return rows.map((row) => ({
      ...toAccount(row),
      twitterCredentialsPolicy: row.twitter_credentials_policy as TwitterCredentialsPolicy,
      apiKeys: Number(row.api_key_count),
      profiles: Number(row.profile_count),
    }));
  }

  /** Replaces every API key of the account with the one hash given, in one transaction: old keys stop at once. */
  async replaceApiKeys(accountId: string, keyHash: string, now: number): Promise<void> {
    const callers = callerCacheOf(this.db);
    callers.clear();
    await this.db.transaction(async (tx) => {
      await tx.run('DELETE FROM api_keys WHERE account_id = ?', [accountId]);
      await tx.run('INSERT INTO api_keys (key_hash, account_id, created_at) VALUES (?, ?, ?)', [keyHash, accountId, now]);
    });
    // The old key must fail from the next request on: no cached answer may outlive this commit.
    callers.clear();
  }

  async twitterCredentialsPolicy(accountId: string): Promise<TwitterCredentialsPolicy | null> {
    const row = await this.db.get('SELECT twitter_credentials_policy FROM accounts WHERE id = ?', [accountId]);
    return row ? (row.twitter_credentials_policy as TwitterCredentialsPolicy) : null;
  }

  async setTwitterCredentialsPolicy(accountId: string, policy: TwitterCredentialsPolicy): Promise<void> {
    await this.db.run('UPDATE accounts SET twitter_credentials_policy = ? WHERE id = ?', [policy, accountId]);
  }

  /** Every live profile of the account, the Primary Profile first. */
  async profilesOf(accountId: string): Promise<Profile[]> {
    const rows = await this.db.all('SELECT * FROM profiles WHERE account_id = ? AND deleted_at IS NULL ORDER BY is_primary DESC, created_at, id', [
      accountId,
    ]);
    return rows.map(toProfile);
  }

  /** A live profile by its id (`pr_…`) or its `refId`. */
  async findProfile(idOrRefId: string): Promise<Profile | null> {
    const row = await this.db.get('SELECT * FROM profiles WHERE (id = ? OR ref_id = ?) AND deleted_at IS NULL', [idOrRefId, idOrRefId]);
    return row ? toProfile(row) : null;
  }

  async monthlyPostQuota(profileId: string): Promise<number | null> {
    const row = await this.db.get('SELECT monthly_post_quota FROM post_quotas WHERE profile_id = ?', [profileId]);
    return row ? Number(row.monthly_post_quota) : null;
  }

  /** null removes the profile's own quota, so the plan's default applies again. */
  async setMonthlyPostQuota(profileId: string, quota: number | null): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.run('DELETE FROM post_quotas WHERE profile_id = ?', [profileId]);
      if (quota !== null) await tx.run('INSERT INTO post_quotas (profile_id, monthly_post_quota) VALUES (?, ?)', [profileId, quota]);
    });
  }
}
