/**
 * @module
 * The account-health sweep: ONE job row (`account-health`, a fixed id) on the jobs engine, so across instances one
 * worker runs it at a time (the job lease). Every `sweepMs` of the service clock it:
 * 1. gives accounts linked before health existed their first time of day (no network call);
 * 2. pre-flight: for scheduled posts due within `preflightMs`, checks each post's accounts not checked in that window,
 *    and warns once per post and network (`scheduled` webhook, `preflight.warning`) when one needs a relink;
 * 3. renews or checks the accounts whose time came (health-check.ts), each claimed first with a compare-and-set on
 *    its `next_refresh_at`, so an account is checked once even if two sweeps overlap (a lease that lapsed);
 * 4. sends `account.expiring` once per expiry for long-lived tokens ending within the notice that the service could
 *    not renew, and for refresh tokens ending within it (tiktok, linkedin: the user must consent again).
 */
import type { AccountHealthStatus, Network } from '@social-link-kit/protocol';
import type { Clock } from '../core/clock.js';
import type { SqlDriver } from '../core/db/sql-driver.js';
import type { JobHandler, JobOutcome } from '../core/jobs/job-worker.js';
import { newId } from '../core/tokens.js';
import type { Storage } from '../storage/storage.js';
import { checkAccount, renewsItself, tokensOf, type AccountCheckerDeps, type LinkedRow } from './health-check.js';
import type { HealthRecorder } from './health-recorder.js';
import { LONG_LIVED_MS, nextRefreshAt } from './health-schedule.js';
import type { AccountHealthSettings } from './health-settings.js';

export const JOB_ACCOUNT_HEALTH = 'account-health';
const SWEEP_JOB_ID = 'job_account_health_sweep';
/** Accounts checked per sweep; more due → the sweep runs again at once. */
const BATCH = 25;
/** A claimed account is retried this long after, if its check recorded nothing (a crash mid-check). */
const CLAIM_MS = 10 * 60_000;

/** Adds the sweep job if it is missing, or brings it back if it ended (fixed id: every instance may call this). */
export async function ensureHealthSweep(db: SqlDriver, now: number): Promise<void> {
  await db.run(
    `INSERT INTO jobs (id, kind, subject, payload, run_at, created_at) VALUES (?, ?, ?, '{}', ?, ?) ON CONFLICT (id) DO NOTHING`,
    [SWEEP_JOB_ID, JOB_ACCOUNT_HEALTH, JOB_ACCOUNT_HEALTH, now, now],
  );
  await db.run('UPDATE jobs SET done_at = NULL, failed_at = NULL, run_at = ?, attempts = 0 WHERE id = ? AND (done_at IS NOT NULL OR failed_at IS NOT NULL)', [now, SWEEP_JOB_ID]);
}

export interface HealthSweepDeps extends AccountCheckerDeps {
  storage: Storage;
  settings: AccountHealthSettings;
  recorder: HealthRecorder;
  clock: Clock;
  log(line: string): void;
}

export function healthJobHandlers(deps: HealthSweepDeps): Record<string, JobHandler> {
  return {
    async [JOB_ACCOUNT_HEALTH](): Promise<JobOutcome> {
      let more = false;
      try {
        more = await sweep(deps);
      } catch (error) {
        deps.log(JSON.stringify({ event: 'account health sweep failed', reason: error instanceof Error ? error.message : String(error) }));
      }
      return { kind: 'retry', runAt: deps.clock() + (more ? 0 : deps.settings.sweepMs) };
    },
  };
}

const linkedRow = (row: Record<string, unknown>): LinkedRow => ({
  profileId: row.profile_id as string,
  platform: row.platform as Network,
  networkUserId: row.network_user_id as string,
  tokensEncrypted: (row.tokens_encrypted as string | null) ?? null,
});

/** One pass; true when more accounts were due than one batch takes. */
export async function sweep(deps: HealthSweepDeps): Promise<boolean> {
  const db = deps.storage.driver;
  await scheduleNewAccounts(deps);
  await preflight(deps);
  const now = deps.clock();
  const due = await db.all(
    `SELECT s.profile_id, s.platform, s.network_user_id, s.tokens_encrypted, h.next_refresh_at FROM social_accounts s
     JOIN account_health h ON h.profile_id = s.profile_id AND h.platform = s.platform
     WHERE h.next_refresh_at IS NOT NULL AND h.next_refresh_at <= ? ORDER BY h.next_refresh_at LIMIT ${BATCH + 1}`,
    [now],
  );
  for (const row of due.slice(0, BATCH)) {
    if (!(await claim(db, row, now))) continue;
    await checkOne(deps, linkedRow(row));
  }
  await notifyExpiring(deps);
  return due.length > BATCH;
}

async function claim(db: SqlDriver, row: Record<string, unknown>, now: number): Promise<boolean> {
  const changed = await db.run('UPDATE account_health SET next_refresh_at = ? WHERE profile_id = ? AND platform = ? AND next_refresh_at = ?', [
    now + CLAIM_MS,
    row.profile_id,
    row.platform,
    row.next_refresh_at,
  ]);
  return changed === 1;
}

async function checkOne(deps: HealthSweepDeps, account: LinkedRow): Promise<void> {
  try {
    await checkAccount(deps, account);
  } catch (error) {
    deps.log(JSON.stringify({ event: 'account health check failed', platform: account.platform, reason: error instanceof Error ? error.message : String(error) }));
  }
}

async function scheduleNewAccounts(deps: HealthSweepDeps): Promise<void> {
  const now = deps.clock();
  const rows = await deps.storage.driver.all(
    `SELECT s.profile_id, s.platform, s.network_user_id FROM social_accounts s
     LEFT JOIN account_health h ON h.profile_id = s.profile_id AND h.platform = s.platform WHERE h.profile_id IS NULL LIMIT 500`,
  );
  for (const row of rows) {
    const key = { profileId: row.profile_id as string, platform: row.platform as string };
    await deps.storage.driver.run(
      `INSERT INTO account_health (profile_id, platform, network_user_id, status, next_refresh_at) VALUES (?, ?, ?, 'healthy', ?) ON CONFLICT (profile_id, platform) DO NOTHING`,
      [key.profileId, key.platform, row.network_user_id, nextRefreshAt(now, key, { expiresAt: null, lifetimeMs: null })],
    );
  }
}

const PROBLEMS: readonly AccountHealthStatus[] = ['needs_relink', 'revoked'];

async function preflight(deps: HealthSweepDeps): Promise<void> {
  const db = deps.storage.driver;
  const now = deps.clock();
  const posts = await db.all(
    `SELECT id, profile_id, platforms, schedule_date FROM posts
     WHERE status = 'scheduled' AND deleted_at IS NULL AND paused = 0 AND schedule_date > ? AND schedule_date <= ? ORDER BY schedule_date LIMIT 200`,
    [now, now + deps.settings.preflightMs],
  );
  for (const post of posts) {
    for (const platform of JSON.parse(post.platforms as string) as Network[]) {
      const row = await db.get(
        `SELECT s.profile_id, s.platform, s.network_user_id, s.tokens_encrypted, h.status, h.last_refreshed_at, h.last_error_at, h.next_refresh_at FROM social_accounts s
         LEFT JOIN account_health h ON h.profile_id = s.profile_id AND h.platform = s.platform WHERE s.profile_id = ? AND s.platform = ?`,
        [post.profile_id, platform],
      );
      if (!row) continue;
      const lastCheck = Math.max(Number(row.last_refreshed_at ?? 0), Number(row.last_error_at ?? 0));
      // Not checked within the window (and not a known problem): check it now, as the sweep would.
      if (!PROBLEMS.includes(row.status as AccountHealthStatus) && lastCheck < Number(post.schedule_date) - deps.settings.preflightMs) {
        if (row.next_refresh_at === null || (await claim(db, row, now))) await checkOne(deps, linkedRow(row));
      }
      const health = await db.get('SELECT status, last_error_code, last_error_message FROM account_health WHERE profile_id = ? AND platform = ?', [post.profile_id, platform]);
      if (!health || !PROBLEMS.includes(health.status as AccountHealthStatus)) continue;
      await warnOnce(deps, post, platform, health, now);
    }
  }
}

async function warnOnce(deps: HealthSweepDeps, post: Record<string, unknown>, platform: Network, health: Record<string, unknown>, now: number): Promise<void> {
  await deps.storage.driver.transaction(async (tx) => {
    const added = await tx.run('INSERT INTO preflight_warnings (post_id, platform, warned_at) VALUES (?, ?, ?) ON CONFLICT (post_id, platform) DO NOTHING', [post.id, platform, now]);
    if (added !== 1) return;
    await deps.storage.webhooks.enqueue(tx, post.profile_id as string, 'scheduled', now, (profile) => ({
      id: newId('evt_'),
      action: 'scheduled',
      event: 'preflight.warning',
      postId: post.id as string,
      platform,
      refId: profile.refId,
      title: profile.title,
      scheduleDate: new Date(Number(post.schedule_date)).toISOString(),
      accountStatus: health.status as AccountHealthStatus,
      reason: (health.last_error_code as string | null) ?? 'invalid_grant',
      message: `The ${platform} account needs to be linked again before this post can be published: ${(health.last_error_message as string | null) ?? 'the network refused its access'}`,
      created: new Date(now).toISOString(),
    }));
  });
}

/**
 * Ends within the notice the service cannot get past by itself: `account.expiring`, once per end. A long-lived access
 * token that is not healthy or cannot renew itself; a refresh token's end (tiktok, linkedin) always, since renewing
 * the access token does not move it. When both are near, the sooner is reported first.
 */
async function notifyExpiring(deps: HealthSweepDeps): Promise<void> {
  const now = deps.clock();
  const until = now + deps.settings.expiringNoticeMs;
  const rows = await deps.storage.driver.all(
    `SELECT h.profile_id, h.platform, h.network_user_id, h.token_expires_at, h.refresh_expires_at, h.last_refreshed_at, h.status, h.expiring_notified_for, s.tokens_encrypted
     FROM account_health h JOIN social_accounts s ON s.profile_id = h.profile_id AND s.platform = h.platform
     WHERE ((h.token_expires_at > ? AND h.token_expires_at <= ? AND h.token_expires_at - COALESCE(h.last_refreshed_at, 0) >= ?)
         OR (h.refresh_expires_at > ? AND h.refresh_expires_at <= ?))
       AND (h.expiring_notified_for IS NULL OR (h.expiring_notified_for <> COALESCE(h.token_expires_at, -1) AND h.expiring_notified_for <> COALESCE(h.refresh_expires_at, -1)))
     LIMIT 200`,
    [now, until, LONG_LIVED_MS, now, until],
  );
  for (const row of rows) {
    const ends: number[] = [];
    const accessEnd = row.token_expires_at === null ? null : Number(row.token_expires_at);
    if (accessEnd !== null && accessEnd > now && accessEnd <= until) {
      const refreshable = renewsItself(deps, row.platform as Network, tokensOf(deps, linkedRow(row)));
      // A refreshable account that is healthy renews itself ahead of the expiry; short-lived tokens are not news.
      if (!(refreshable && row.status === 'healthy') && accessEnd - Number(row.last_refreshed_at ?? 0) >= LONG_LIVED_MS) ends.push(accessEnd);
    }
    const refreshEnd = row.refresh_expires_at === null ? null : Number(row.refresh_expires_at);
    if (refreshEnd !== null && refreshEnd > now && refreshEnd <= until) ends.push(refreshEnd);
    if (ends.length === 0) continue;
    const expiresAt = Math.min(...ends);
    if (row.expiring_notified_for !== null && Number(row.expiring_notified_for) === expiresAt) continue;
    await deps.recorder.recordExpiring(linkedRow(row), expiresAt, now);
  }
}
