/**
 * @module
 * The one place an account's health changes (README "Account health"). Every renewal or identity check, in the
 * background, before a scheduled post or at publish time, ends here with its outcome; the new state and the events
 * it causes commit in one transaction, so an event is sent once per change:
 * - `ok` → healthy; from degraded (or a problem the network itself cleared) an `account.recovered`;
 * - `transient` (5xx, timeout, 429) → degraded, retried with backoff for as long as it lasts; never a relink;
 * - `permanent` (invalid_grant, revoked consent, missing scope) → needs_relink or revoked, and ONE
 *   `account.needs_relink` per problem (`problem_notified`), however many checks or posts meet it afterwards;
 * - a new link of the same network user → healthy, and `account.recovered` (`after: relinked`) when it had a problem.
 * Events go to the profile's `social` webhook; they never carry tokens or linking URLs.
 */
import type { AccountHealthStatus, AccountHealthWebhookPayload, AccountProblemCode, AccountRelinkCall, Network } from '@social-link-kit/protocol';
import type { SqlExecutor } from '../core/db/sql-driver.js';
import { newId } from '../core/tokens.js';
import type { Storage } from '../storage/storage.js';
import { nextRefreshAt, retryAt } from './health-schedule.js';

export interface AccountKey {
  profileId: string;
  platform: Network;
  networkUserId: string;
}

/** What the token says of itself after a renewal or at link: expiry and granted scopes, where known. */
export interface TokenFacts {
  expiresAt: number | null;
  lifetimeMs: number | null;
  scope: string | null;
  /** When the refresh token ends (tiktok, linkedin: a year after consent; renewing does not move it). */
  refreshExpiresAt: number | null;
}

export type CheckOutcome =
  | { kind: 'ok'; token: TokenFacts | null }
  | { kind: 'transient'; code: 'unavailable' | 'rate_limited'; message: string }
  | { kind: 'permanent'; status: 'needs_relink' | 'revoked'; code: 'invalid_grant' | 'revoked' | 'missing_scope'; message: string }
  /** Nothing the service can check without the network's help (bluesky, telegram): only the next time moves. */
  | { kind: 'unchecked' };

export interface HealthRow {
  status: AccountHealthStatus;
  networkUserId: string;
  lastRefreshedAt: number | null;
  nextRefreshAt: number | null;
  tokenExpiresAt: number | null;
  refreshExpiresAt: number | null;
  lastError: { code: AccountProblemCode; message: string; at: number } | null;
  failures: number;
  problemNotified: string | null;
  expiringNotifiedFor: number | null;
}

const num = (value: unknown) => (value === null || value === undefined ? null : Number(value));

export async function readHealth(tx: SqlExecutor, profileId: string, platform: Network, forUpdate = ''): Promise<HealthRow | null> {
  const row = await tx.get(`SELECT * FROM account_health WHERE profile_id = ? AND platform = ?${forUpdate}`, [profileId, platform]);
  if (!row) return null;
  return {
    status: row.status as AccountHealthStatus,
    networkUserId: row.network_user_id as string,
    lastRefreshedAt: num(row.last_refreshed_at),
    nextRefreshAt: num(row.next_refresh_at),
    tokenExpiresAt: num(row.token_expires_at),
    refreshExpiresAt: num(row.refresh_expires_at),
    lastError: row.last_error_code ? { code: row.last_error_code as AccountProblemCode, message: (row.last_error_message as string) ?? '', at: Number(row.last_error_at) } : null,
    failures: Number(row.failures),
    problemNotified: (row.problem_notified as string | null) ?? null,
    expiringNotifiedFor: num(row.expiring_notified_for),
  };
}

/** The profile's linked accounts that are not healthy, by network (the hosted page's attention notes). */
export async function accountsNeedingAttention(db: SqlExecutor, profileId: string): Promise<Map<Network, Exclude<AccountHealthStatus, 'healthy'>>> {
  const rows = await db.all(
    `SELECT h.platform, h.status FROM account_health h JOIN social_accounts s ON s.profile_id = h.profile_id AND s.platform = h.platform AND s.network_user_id = h.network_user_id
     WHERE h.profile_id = ? AND h.status <> 'healthy'`,
    [profileId],
  );
  return new Map(rows.map((row) => [row.platform as Network, row.status as Exclude<AccountHealthStatus, 'healthy'>]));
}

async function writeHealth(tx: SqlExecutor, key: AccountKey, row: HealthRow): Promise<void> {
  await tx.run(
    `INSERT INTO account_health (profile_id, platform, network_user_id, status, last_refreshed_at, next_refresh_at, token_expires_at,
       last_error_code, last_error_message, last_error_at, failures, problem_notified, expiring_notified_for, refresh_expires_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (profile_id, platform) DO UPDATE SET network_user_id = excluded.network_user_id, status = excluded.status,
       last_refreshed_at = excluded.last_refreshed_at, next_refresh_at = excluded.next_refresh_at, token_expires_at = excluded.token_expires_at,
       last_error_code = excluded.last_error_code, last_error_message = excluded.last_error_message, last_error_at = excluded.last_error_at,
       failures = excluded.failures, problem_notified = excluded.problem_notified, expiring_notified_for = excluded.expiring_notified_for,
       refresh_expires_at = excluded.refresh_expires_at`,
    [
      key.profileId,
      key.platform,
      key.networkUserId,
      row.status,
      row.lastRefreshedAt,
      row.nextRefreshAt,
      row.tokenExpiresAt,
      row.lastError?.code ?? null,
      row.lastError?.message.slice(0, 500) ?? null,
      row.lastError?.at ?? null,
      row.failures,
      row.problemNotified,
      row.expiringNotifiedFor,
      row.refreshExpiresAt,
    ],
  );
}

const fresh = (networkUserId: string): HealthRow => ({
  status: 'healthy',
  networkUserId,
  lastRefreshedAt: null,
  nextRefreshAt: null,
  tokenExpiresAt: null,
  refreshExpiresAt: null,
  lastError: null,
  failures: 0,
  problemNotified: null,
  expiringNotifiedFor: null,
});

type Stored<P> = P extends { event: 'account.needs_relink' } ? Omit<P, 'relink'> & { relink: AccountRelinkCall } : P;
/** An event as queued: `account.needs_relink` without its link, which is made when it is sent (relink-link.ts). */
type EventBody = { [K in AccountHealthWebhookPayload['event']]: Omit<Stored<Extract<AccountHealthWebhookPayload, { event: K }>>, 'id' | 'action' | 'platform' | 'refId' | 'title' | 'created'> }[AccountHealthWebhookPayload['event']];

/** Queues an account event on the profile's `social` webhook, in `tx` (nothing when it has none). */
export async function enqueueAccountEvent(storage: Storage, tx: SqlExecutor, key: AccountKey, now: number, body: EventBody): Promise<void> {
  await storage.webhooks.enqueue(tx, key.profileId, 'social', now, (profile) => ({
    id: newId('evt_'),
    action: 'social',
    platform: key.platform,
    refId: profile.refId,
    title: profile.title,
    created: new Date(now).toISOString(),
    ...body,
  }));
}

export class HealthRecorder {
  readonly #storage: Storage;

  constructor(storage: Storage) {
    this.#storage = storage;
  }

  /** Records how a renewal or check ended; returns the new status. */
  async record(key: AccountKey, outcome: CheckOutcome, now: number): Promise<AccountHealthStatus> {
    const { driver } = this.#storage;
    return driver.transaction(async (tx) => {
      // The account may have been unlinked or linked to another user while the check ran: then it says nothing.
      const linked = await tx.get('SELECT network_user_id FROM social_accounts WHERE profile_id = ? AND platform = ?', [key.profileId, key.platform]);
      if (!linked || linked.network_user_id !== key.networkUserId) return 'healthy';
      const before = (await readHealth(tx, key.profileId, key.platform, driver.dialect.forUpdate)) ?? fresh(key.networkUserId);
      const after: HealthRow = { ...before };
      if (outcome.kind === 'ok') {
        Object.assign(after, { status: 'healthy', lastRefreshedAt: now, failures: 0, problemNotified: null });
        if (outcome.token) Object.assign(after, { tokenExpiresAt: outcome.token.expiresAt, refreshExpiresAt: outcome.token.refreshExpiresAt });
        after.nextRefreshAt = nextRefreshAt(now, key, outcome.token ?? { expiresAt: after.tokenExpiresAt, lifetimeMs: null });
        if (before.status !== 'healthy') await enqueueAccountEvent(this.#storage, tx, key, now, { event: 'account.recovered', after: 'transient_cleared' });
      } else if (outcome.kind === 'transient') {
        // A transient failure never hides a permanent problem already known, nor becomes one.
        const permanent = before.status === 'needs_relink' || before.status === 'revoked';
        Object.assign(after, {
          status: permanent ? before.status : 'degraded',
          failures: before.failures + 1,
          lastError: { code: outcome.code, message: outcome.message, at: now },
          nextRefreshAt: permanent ? null : retryAt(now, before.failures + 1),
        });
      } else if (outcome.kind === 'permanent') {
        Object.assign(after, { status: outcome.status, failures: 0, lastError: { code: outcome.code, message: outcome.message, at: now }, nextRefreshAt: null });
        if (before.problemNotified !== outcome.status) {
          after.problemNotified = outcome.status;
          await enqueueAccountEvent(this.#storage, tx, key, now, {
            event: 'account.needs_relink',
            status: outcome.status,
            reason: outcome.code,
            message: outcome.message,
            relink: { method: 'POST', path: '/api/profiles/link-sessions', body: { relink: key.platform } },
          });
        }
      } else {
        after.nextRefreshAt = nextRefreshAt(now, key, { expiresAt: after.tokenExpiresAt, lifetimeMs: null });
      }
      await writeHealth(tx, key, after);
      return after.status;
    });
  }

  /**
   * Inside a link's transaction: the account starts healthy. A relink of the same network user that had a problem
   * (or was degraded) reports `account.recovered`; a different user is a new account (its history is the old one's
   * profile's, but nothing recovered).
   */
  async recordLinked(tx: SqlExecutor, key: AccountKey, token: TokenFacts | null, now: number): Promise<void> {
    const before = await readHealth(tx, key.profileId, key.platform, this.#storage.driver.dialect.forUpdate);
    const after: HealthRow = { ...fresh(key.networkUserId), lastRefreshedAt: now, tokenExpiresAt: token?.expiresAt ?? null, refreshExpiresAt: token?.refreshExpiresAt ?? null };
    after.nextRefreshAt = nextRefreshAt(now, key, token ?? { expiresAt: null, lifetimeMs: null });
    if (before && before.networkUserId === key.networkUserId && before.status !== 'healthy') {
      await enqueueAccountEvent(this.#storage, tx, key, now, { event: 'account.recovered', after: 'relinked' });
    }
    await writeHealth(tx, key, after);
  }

  /** Once per expiry: the token ends within the notice and the service cannot renew it by itself. */
  async recordExpiring(key: AccountKey, expiresAt: number, now: number): Promise<boolean> {
    return this.#storage.driver.transaction(async (tx) => {
      const changed = await tx.run(
        'UPDATE account_health SET expiring_notified_for = ? WHERE profile_id = ? AND platform = ? AND network_user_id = ? AND (expiring_notified_for IS NULL OR expiring_notified_for <> ?)',
        [expiresAt, key.profileId, key.platform, key.networkUserId, expiresAt],
      );
      if (changed !== 1) return false;
      await enqueueAccountEvent(this.#storage, tx, key, now, { event: 'account.expiring', expiresAt: new Date(expiresAt).toISOString() });
      return true;
    });
  }
}
